import type { CertificateRecord } from '@contract/certificates/schemas';
import type { Wire } from '@contract/shared/wire';

/** A certificate of completion as the console sees it (api/src/certificates/schemas.ts). */
export type Certificate = Wire<CertificateRecord>;

/** The public verification page, which the learner shares (same origin as the console). */
export const verificationPath = (certificate: Pick<Certificate, 'id'>) =>
  `/certificates/${encodeURIComponent(certificate.id)}`;
