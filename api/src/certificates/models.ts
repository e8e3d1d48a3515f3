import { table } from '../db/base-model';

/** A certificate of completion: issued once per learner and course, kept through refunds and course changes. */
export class Certificate extends table('certificates') {
  /** 12 characters of Crockford's base32: the public verification page's address. */
  declare id: string;
  declare userId: string;
  /** Null once the course itself was deleted: the certificate still verifies, by its title. */
  declare courseId: string | null;
  /** The learner's name and the course's title when it was issued. */
  declare learnerName: string;
  declare courseTitle: string;
  declare issuedAt: Date;
  declare revokedAt: Date | null;
  declare revokedReason: string | null;
  declare revokedById: string | null;
  /** When the course-complete email was queued (once per certificate); set for those issued before it existed. */
  declare completionEmailedAt: Date | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}
