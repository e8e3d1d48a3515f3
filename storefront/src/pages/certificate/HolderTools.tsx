import { useEffect, useState } from 'react';
import { isApiError } from '../../api/client';
import { certificatePdfPath, getMyCertificate, type MyCertificate } from '../../api/certificates';
import { CopyLinkField } from '../../CopyLinkField';
import { useSession } from '../../session';

/**
 * The reader's own copy of this certificate, or null: asked only once the session is known to be signed in, and
 * null for anyone else's (404). Visitors, and the server's render, never get the holder's tools.
 */
export function useHeldCertificate(id: string) {
  const { state } = useSession();
  const userId = state.status === 'signed-in' ? state.user.id : null;
  const [held, setHeld] = useState<MyCertificate | null>(null);
  useEffect(() => {
    setHeld(null);
    if (!userId) return;
    let live = true;
    getMyCertificate(id).then(
      (mine) => live && setHeld(mine),
      (error: unknown) => {
        // Someone else's certificate: the page stays the verification only. Anything else: the tools stay away.
        if (!isApiError(error, 'not-found')) console.warn('Could not tell whether this certificate is yours', error);
      },
    );
    return () => {
      live = false;
    };
  }, [id, userId]);
  return [held, setHeld] as const;
}

/**
 * LinkedIn's "Add to profile" for a certification (https://addtoprofile.linkedin.com/): the course as its name, the
 * school as who issued it, the month it was issued, and the verification page.
 */
function linkedInUrl(certificate: MyCertificate, schoolName: string): string {
  const issued = new Date(certificate.issuedAt);
  const params = new URLSearchParams({
    startTask: 'CERTIFICATION_NAME',
    name: certificate.courseTitle,
    organizationName: schoolName,
    issueYear: String(issued.getUTCFullYear()),
    issueMonth: String(issued.getUTCMonth() + 1),
    certUrl: certificate.url,
    certId: certificate.id,
  });
  return `https://www.linkedin.com/profile/add?${params}`;
}

/** What only the holder of a certificate in force sees: download, share, copy the link. */
export function ShareCertificate({ certificate, schoolName }: { certificate: MyCertificate; schoolName: string }) {
  return (
    <section className="certificate-share" aria-labelledby="certificate-share-heading">
      <h2 id="certificate-share-heading">Download and share</h2>
      <p className="actions">
        <a className="button-link" href={certificatePdfPath(certificate)}>
          Download PDF
        </a>
        <a
          className="button-link button-link-quiet"
          href={linkedInUrl(certificate, schoolName)}
          target="_blank"
          rel="noopener"
        >
          Add to LinkedIn<span className="visually-hidden"> (opens LinkedIn in a new tab)</span>
        </a>
      </p>
      <CopyLinkField
        label="Link to this certificate"
        url={certificate.url}
        hint="Anyone with the link can check this certificate here."
      />
    </section>
  );
}
