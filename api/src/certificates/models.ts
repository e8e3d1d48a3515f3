import { table } from '../db/base-model';

/** A certificate of completion: issued once per learner and course, kept through refunds and course changes. */
export class Certificate extends table('certificates') {
  /** 12 characters of Crockford's base32: the public verification page's address. */
  declare id: string;
  declare userId: string;
  /** Null once the course itself was deleted: the certificate still verifies, by its title. */
  declare courseId: string | null;
  /** The learner's name as issued (a later display-name change does not touch it), or as last corrected. */
  declare learnerName: string;
  declare courseTitle: string;
  declare issuedAt: Date;
  declare revokedAt: Date | null;
  declare revokedReason: string | null;
  declare revokedById: string | null;
  /** When the name was last corrected (by its holder or by support), and by whom. */
  declare nameCorrectedAt: Date | null;
  declare nameCorrectedById: string | null;
  /** When the holder used their one correction. */
  declare holderCorrectedAt: Date | null;
  /** When the course-complete email was queued (once per certificate); set for those issued before it existed. */
  declare completionEmailedAt: Date | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}
