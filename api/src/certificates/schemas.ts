import { z } from 'zod';
import { normalizeCertificateId } from './certificate-id';
import { PersonName } from '../identity/profile/display-name.schemas';
import { STAFF_REASON_MAX } from '../shared/staff-reason';

/** A certificate's id as typed or linked (lower case, O for 0 ...), in its one written form. */
const CertificateId = z
  .string()
  .max(40)
  .transform((text, ctx) => {
    const id = normalizeCertificateId(text);
    if (!id) {
      ctx.addIssue({ code: 'custom', message: 'must be a certificate id (12 letters and digits)' });
      return z.NEVER;
    }
    return id;
  });

/** `/:id` of a certificate: the store's, the console's and the PDF's (`/certificates/:id.pdf`). */
export const CertificateIdParam = z.object({ id: CertificateId });

/** POST /api/admin/certificates/:id/revoke: why, for the verification page to say. */
export const RevokeBody = z
  .object({
    reason: z
      .string()
      .trim()
      .min(1, 'say why it is revoked')
      .max(STAFF_REASON_MAX, `at most ${STAFF_REASON_MAX} characters`),
  })
  .strict();

/**
 * PUT /api/store/certificates/:id/name (the holder's one correction) and POST /api/admin/certificates/:id/name
 * (support's): the name as it should read, by the display name's rules (trimmed, spaces made one, no control
 * characters), never empty.
 */
export const CorrectNameBody = z.object({ name: PersonName }).strict();

// ─── Answers ───────────────────────────────────────────────────────────────────────────────────────────────────────
// Type-only for the apps (dates as `Date` here, strings on the wire: api/src/shared/wire.ts).

/** GET /api/store/certificates/:id (public): what the verification page shows, never the learner's email. */
export interface CertificateView {
  id: string;
  /**
   * The learner's name as it was when the certificate was issued (their display name, or without one "Learner 4F2A",
   * never a piece of their email), or as corrected since.
   */
  learnerName: string;
  /** When the name was last corrected; null when it reads as issued. */
  nameCorrectedAt: Date | null;
  courseTitle: string;
  /** Where the course's page is (its slug, else its id); null once the course is gone or no longer public. */
  courseSlug: string | null;
  issuedAt: Date;
  revokedAt: Date | null;
  revokedReason: string | null;
  /** The verification page and the PDF, absolute (PUBLIC_URL): what is shared. */
  url: string;
  pdfUrl: string;
  /** The link preview's picture of the certificate (og:image, a 1200 × 630 PNG). */
  previewUrl: string;
}

/** GET /api/store/certificates (in `data`): the learner's own, revoked ones too. */
export interface MyCertificate extends CertificateView {
  /** Null once the course was deleted (the certificate keeps its title). */
  courseId: string | null;
  /** Whether the holder may still correct the name (once, while the certificate is in force). */
  canCorrectName: boolean;
}

/** A certificate as the console sees it (the `certificates` resource, and what the revoke action answers in `data`). */
export interface CertificateRecord {
  id: string;
  userId: string;
  learnerEmail: string | null;
  learnerName: string;
  courseId: string | null;
  courseTitle: string;
  status: 'issued' | 'revoked';
  issuedAt: Date;
  revokedAt: Date | null;
  revokedReason: string | null;
  revokedById: string | null;
  nameCorrectedAt: Date | null;
  nameCorrectedById: string | null;
  holderCorrectedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}
