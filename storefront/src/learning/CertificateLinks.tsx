import { Link } from 'wouter';
import { certificatePath, certificatePdfPath, type MyCertificate } from '../api/certificates';

/**
 * A course's certificate where the learner's courses are listed: its page and its PDF, or that it was revoked. The
 * course's title goes into the links' names, which repeat on every card.
 */
export function CertificateLinks({ certificate }: { certificate: MyCertificate }) {
  const of = <span className="visually-hidden"> of {certificate.courseTitle}</span>;
  if (certificate.revokedAt) {
    return (
      <p className="hint certificate-links">
        Certificate revoked. <Link to={certificatePath(certificate)}>See why{of}</Link>
      </p>
    );
  }
  return (
    <p className="certificate-links">
      <Link className="button-link button-link-quiet" to={certificatePath(certificate)}>
        View certificate{of}
      </Link>
      <a className="button-link button-link-quiet" href={certificatePdfPath(certificate)}>
        Download PDF{of}
      </a>
    </p>
  );
}
