import type * as Certificates from '@contract/certificates/schemas';
import type { ListAnswer, Wire } from '@contract/shared/wire';
import { getJson, putJson } from './client';

/** What the public verification page shows (GET /api/store/certificates/:id): never the learner's email. */
export type CertificateView = Wire<Certificates.CertificateView>;
/** One of the learner's own certificates (GET /api/store/certificates). */
export type MyCertificate = Wire<Certificates.MyCertificate>;

const enc = encodeURIComponent;
/** The verification page, on this site. */
export const certificatePath = (certificate: { id: string }) => `/certificates/${enc(certificate.id)}`;
/** The PDF, on this site (the API answers it, not the storefront). */
export const certificatePdfPath = (certificate: { id: string }) => `/certificates/${enc(certificate.id)}.pdf`;

export function getCertificate(id: string): Promise<CertificateView> {
  return getJson(`/api/store/certificates/${enc(id)}`);
}

/** The learner's certificates, newest first (the API issues any they earned but lack first). */
export async function listMyCertificates(): Promise<MyCertificate[]> {
  return (await getJson<ListAnswer<MyCertificate>>('/api/store/certificates')).data;
}

/** The reader's own certificate (its holder's view: sharing, correcting the name); 404 not-found for anyone else. */
export async function getMyCertificate(id: string): Promise<MyCertificate> {
  return (await getJson<{ data: MyCertificate }>(`/api/store/certificates/${enc(id)}/mine`)).data;
}

/** The holder's one correction of the name on their certificate. */
export async function correctCertificateName(id: string, name: string): Promise<MyCertificate> {
  return (await putJson<{ data: MyCertificate }>(`/api/store/certificates/${enc(id)}/name`, { name })).data;
}
