import { useState } from 'react';
import { Link, useParams } from 'wouter';
import { isApiError } from '../../api/client';
import { certificatePath, getCertificate, type CertificateView } from '../../api/certificates';
import { formatLongDate } from '../../format';
import { useHead, type Head } from '../../head';
import { LoadStatus } from '../../LoadStatus';
import { useReaderClock } from '../../readerClock';
import { useSchool } from '../../school';
import { useAsync } from '../../useAsync';
import { NotFoundPage } from '../NotFoundPage';
import { CorrectNameForm } from './CorrectNameForm';
import { ShareCertificate, useHeldCertificate } from './HolderTools';

/** The date in UTC, for what the server writes into the page's head (link previews). */
const utcDate = (iso: string) => formatLongDate(iso, { timeZone: 'UTC' });

/**
 * What a shared link previews: who completed what and when, with a picture of the certificate. Never indexed by
 * search engines (a person's name), but rendered on the server so the preview and the page's first paint need no
 * script.
 */
function certificateHead(certificate: CertificateView, schoolName: string): Head {
  const { learnerName, courseTitle, issuedAt, revokedAt } = certificate;
  return {
    title: revokedAt
      ? `Revoked certificate: ${courseTitle}`
      : `${learnerName}: certificate of completion, ${courseTitle}`,
    description: revokedAt
      ? `This certificate of completion of ${courseTitle} from ${schoolName} was revoked.`
      : `${learnerName} completed ${courseTitle} on ${utcDate(issuedAt)}. Verify the certificate on ${schoolName}.`,
    path: certificatePath(certificate),
    image: revokedAt ? null : certificate.previewUrl,
    noindex: true,
  };
}

/** /certificates/:id: anyone checks a certificate of completion; only its holder downloads, shares or corrects it. */
export function CertificatePage() {
  const { id = '' } = useParams();
  const school = useSchool();
  const certificate = useAsync(() => getCertificate(id), [id]);
  const notFound = certificate.status === 'error' && isApiError(certificate.error, 'not-found', 'validation-failed');
  useHead(
    notFound
      ? {}
      : certificate.status === 'ready'
        ? certificateHead(certificate.data, school.name)
        : { title: 'Certificate', noindex: true },
  );
  if (notFound) {
    return (
      <NotFoundPage title="Certificate not found">
        No certificate has this id. Check that the link or the id was copied whole.
      </NotFoundPage>
    );
  }
  if (certificate.status !== 'ready') {
    return (
      <section className="narrow">
        <h1>Certificate</h1>
        <LoadStatus state={certificate} retry={certificate.retry} what="the certificate" />
      </section>
    );
  }
  return <Certificate certificate={certificate.data} schoolName={school.name} />;
}

function Certificate({ certificate: shown, schoolName }: { certificate: CertificateView; schoolName: string }) {
  const clock = useReaderClock();
  const [held, setHeld] = useHeldCertificate(shown.id);
  const [notice, setNotice] = useState<string | null>(null);
  // The holder's answer is the newer one after they correct the name.
  const certificate = held ?? shown;
  const { learnerName, nameCorrectedAt, courseTitle, courseSlug, issuedAt, revokedAt, revokedReason } = certificate;
  const revoked = revokedAt !== null;
  return (
    <article className="certificate-page" aria-labelledby="certificate-heading">
      {revoked && (
        <div className="notice notice-error certificate-revoked">
          <h2>This certificate was revoked</h2>
          <p>
            {schoolName} revoked it on <time dateTime={revokedAt}>{formatLongDate(revokedAt, clock)}</time>. It no
            longer certifies that this course was completed.
          </p>
          <p>Reason: {revokedReason}</p>
        </div>
      )}
      <div className={revoked ? 'certificate-card certificate-card-revoked' : 'certificate-card'}>
        <p className="certificate-issuer">{schoolName}</p>
        <h1 id="certificate-heading">Certificate of completion</h1>
        <p className="certificate-lead">This certifies that</p>
        <p className="certificate-name" dir="auto">
          {learnerName}
        </p>
        {nameCorrectedAt && (
          <p className="certificate-corrected hint">
            Name corrected on <time dateTime={nameCorrectedAt}>{formatLongDate(nameCorrectedAt, clock)}</time>
          </p>
        )}
        <p className="certificate-lead">completed the course</p>
        <p className="certificate-course">
          {courseSlug ? <Link to={`/courses/${encodeURIComponent(courseSlug)}`}>{courseTitle}</Link> : courseTitle}
        </p>
        <p className="certificate-lead">
          on <time dateTime={issuedAt}>{formatLongDate(issuedAt, clock)}</time>
        </p>
        <dl className="certificate-facts">
          <div>
            <dt>Certificate ID</dt>
            <dd className="certificate-id">{certificate.id}</dd>
          </div>
          <div>
            <dt>Status</dt>
            <dd>{revoked ? 'Revoked' : 'Valid'}</dd>
          </div>
        </dl>
      </div>
      {held && !revoked && (
        <>
          <ShareCertificate certificate={held} schoolName={schoolName} />
          {held.canCorrectName && (
            <CorrectNameForm
              certificate={held}
              corrected={(mine) => {
                setHeld(mine);
                setNotice(`Corrected: the certificate now reads ${mine.learnerName}.`);
              }}
            />
          )}
          <p role="status" className="certificate-correct-status">
            {notice}
          </p>
        </>
      )}
    </article>
  );
}
