import { Link, useParams } from 'wouter';
import { isApiError } from '../../api/client';
import { certificatePath, certificatePdfPath, getCertificate, type CertificateView } from '../../api/certificates';
import { CopyLinkField } from '../../CopyLinkField';
import { formatLongDate } from '../../format';
import { SITE_NAME, useHead, type Head } from '../../head';
import { LoadStatus } from '../../LoadStatus';
import { useReaderClock } from '../../readerClock';
import { useAsync } from '../../useAsync';
import { NotFoundPage } from '../NotFoundPage';

/** The date in UTC, for what the server writes into the page's head (link previews). */
const utcDate = (iso: string) => formatLongDate(iso, { timeZone: 'UTC' });

/**
 * What a shared link previews: who completed what and when. Never indexed by search engines (a person's name), but
 * rendered on the server so the preview and the page's first paint need no script.
 */
function certificateHead(certificate: CertificateView): Head {
  const { learnerName, courseTitle, issuedAt, revokedAt } = certificate;
  return {
    title: revokedAt
      ? `Revoked certificate: ${courseTitle}`
      : `${learnerName}: certificate of completion, ${courseTitle}`,
    description: revokedAt
      ? `This certificate of completion of ${courseTitle} from ${SITE_NAME} was revoked.`
      : `${learnerName} completed ${courseTitle} on ${utcDate(issuedAt)}. Verify the certificate on ${SITE_NAME}.`,
    path: certificatePath(certificate),
    noindex: true,
  };
}

/**
 * LinkedIn's "Add to profile" for a certification (https://addtoprofile.linkedin.com/): the course as its name, this
 * site as who issued it, the month it was issued, and this page to verify it.
 */
function linkedInUrl(certificate: CertificateView): string {
  const issued = new Date(certificate.issuedAt);
  const params = new URLSearchParams({
    startTask: 'CERTIFICATION_NAME',
    name: certificate.courseTitle,
    organizationName: SITE_NAME,
    issueYear: String(issued.getUTCFullYear()),
    issueMonth: String(issued.getUTCMonth() + 1),
    certUrl: certificate.url,
    certId: certificate.id,
  });
  return `https://www.linkedin.com/profile/add?${params}`;
}

/** /certificates/:id: anyone checks a certificate of completion; its learner downloads and shares it. */
export function CertificatePage() {
  const { id = '' } = useParams();
  const certificate = useAsync(() => getCertificate(id), [id]);
  const notFound = certificate.status === 'error' && isApiError(certificate.error, 'not-found', 'validation-failed');
  useHead(
    notFound
      ? {}
      : certificate.status === 'ready'
        ? certificateHead(certificate.data)
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
  return <Certificate certificate={certificate.data} />;
}

function Certificate({ certificate }: { certificate: CertificateView }) {
  const clock = useReaderClock();
  const { learnerName, courseTitle, courseSlug, issuedAt, revokedAt, revokedReason } = certificate;
  const revoked = revokedAt !== null;
  return (
    <article className="certificate-page" aria-labelledby="certificate-heading">
      {revoked && (
        <div className="notice notice-error certificate-revoked">
          <h2>This certificate was revoked</h2>
          <p>
            {SITE_NAME} revoked it on <time dateTime={revokedAt}>{formatLongDate(revokedAt, clock)}</time>. It no longer
            certifies that this course was completed.
          </p>
          <p>Reason: {revokedReason}</p>
        </div>
      )}
      <div className={revoked ? 'certificate-card certificate-card-revoked' : 'certificate-card'}>
        <p className="certificate-issuer">{SITE_NAME}</p>
        <h1 id="certificate-heading">Certificate of completion</h1>
        <p className="certificate-lead">This certifies that</p>
        <p className="certificate-name">{learnerName}</p>
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
      {!revoked && (
        <section className="certificate-share" aria-labelledby="certificate-share-heading">
          <h2 id="certificate-share-heading">Download and share</h2>
          <p className="actions">
            <a className="button-link" href={certificatePdfPath(certificate)}>
              Download PDF
            </a>
            <a className="button-link button-link-quiet" href={linkedInUrl(certificate)} target="_blank" rel="noopener">
              Add to LinkedIn<span className="visually-hidden"> (opens LinkedIn in a new tab)</span>
            </a>
          </p>
          <CopyLinkField
            label="Link to this certificate"
            url={certificate.url}
            hint="Anyone with the link can check this certificate here."
          />
        </section>
      )}
    </article>
  );
}
