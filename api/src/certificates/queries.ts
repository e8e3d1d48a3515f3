import { defaultName } from '../shared/shown-name';
import type { Knex } from 'knex';
import { newCertificateId } from './certificate-id';
import type { Certificate } from './models';
import type { CourseCompletion } from '../learning/progress';

// The SQL behind certificates (certificates.ts holds the rules). Each function is one statement unless it says so.

/**
 * The name a certificate is issued with (and keeps): the learner's display name, else the name they are shown by
 * ("Learner 4F2A", shared/shown-name.ts), never a piece of their email, since the verification page is public. The
 * holder's one correction puts their real name on it.
 */
const LEARNER_NAME = `coalesce(nullif(btrim(u.name), ''), :defaultName)`;

/** The course's address on the storefront while learners can see it (published, not private, not deleted). */
const COURSE_SLUG = `CASE WHEN cr.deleted_at IS NULL AND cr.fields->>'state' = 'published'
                          AND coalesce(cr.fields->>'visibility', 'public') <> 'private'
                         THEN coalesce(cr.fields->>'slug', cr.id::text) END`;

/** A certificate with its course's slug, as the storefront shows it. */
export type CertificateRow = Pick<
  Certificate,
  | 'id'
  | 'userId'
  | 'courseId'
  | 'learnerName'
  | 'courseTitle'
  | 'issuedAt'
  | 'revokedAt'
  | 'revokedReason'
  | 'nameCorrectedAt'
  | 'holderCorrectedAt'
  | 'updatedAt'
> & { courseSlug: string | null };

const withCourse = (db: Knex) =>
  db('certificates as c')
    .leftJoin('contentResources as cr', 'cr.id', 'c.courseId')
    .select(
      'c.id',
      'c.userId',
      'c.courseId',
      'c.learnerName',
      'c.courseTitle',
      'c.issuedAt',
      'c.revokedAt',
      'c.revokedReason',
      'c.nameCorrectedAt',
      'c.holderCorrectedAt',
      'c.updatedAt',
      db.raw(`${COURSE_SLUG} AS course_slug`),
    );

export async function certificateById(db: Knex, id: string): Promise<CertificateRow | null> {
  return (await withCourse(db).where('c.id', id).first()) ?? null;
}

/** The learner's certificates, newest first. */
export async function certificatesOf(db: Knex, userId: string): Promise<CertificateRow[]> {
  return withCourse(db)
    .where('c.userId', userId)
    .orderBy([
      { column: 'c.issuedAt', order: 'desc' },
      { column: 'c.id', order: 'desc' },
    ]);
}

/** The courses (of these) the learner already has a certificate for, revoked or not. */
export async function certifiedCourseIds(db: Knex, userId: string): Promise<Set<string>> {
  const rows: { courseId: string }[] = await db('certificates').where({ userId }).whereNotNull('courseId');
  return new Set(rows.map((r) => r.courseId));
}

/**
 * A quiz the course requires (its `quizzesRequired` setting) among these lessons that the learner has not passed: by
 * the result the quiz keeps, their best attempt (any passed) or their last one (docs/domain.md §11, §13).
 */
const QUIZ_NOT_PASSED = `
  SELECT 1 FROM content_resources course, content_resources quiz
   WHERE course.id = :courseId AND course.fields->>'quizzesRequired' = 'true'
     AND quiz.id = ANY(CAST(:lessonIds AS uuid[])) AND quiz.fields->>'kind' = 'quiz'
     AND NOT coalesce((SELECT CASE WHEN quiz.fields->'quiz'->>'keep' = 'last'
                                   THEN (array_agg(a.passed ORDER BY a.number DESC))[1]
                                   ELSE bool_or(a.passed) END
                         FROM quiz_attempts a WHERE a.user_id = :userId AND a.lesson_id = quiz.id), false)`;

const ISSUE = `
  INSERT INTO certificates (id, user_id, course_id, learner_name, course_title)
  SELECT :id, u.id, :courseId, ${LEARNER_NAME}, :courseTitle FROM users u
   WHERE u.id = :userId AND :total > 0
     AND (SELECT count(*) FROM lesson_progress
           WHERE user_id = :userId AND lesson_id = ANY(CAST(:lessonIds AS uuid[])) AND completed_at IS NOT NULL) = :total
     AND NOT EXISTS (${QUIZ_NOT_PASSED})
  ON CONFLICT (user_id, course_id) DO NOTHING
  RETURNING id`;

/**
 * The learner's certificate for a course they completed: issued now when every lesson is complete (counted here,
 * after the caller's write committed, so two last lessons completed at once cannot both miss the other), or the one
 * issued before. One per learner and course whatever races: the unique key decides, the loser keeps the winner's.
 * Null when a lesson is still open, or a quiz the course requires is not passed. The caller checks that the learner
 * holds the course.
 */
export async function issueCertificate(db: Knex, completion: CourseCompletion): Promise<{ id: string } | null> {
  const bindings = {
    userId: completion.userId,
    courseId: completion.courseId,
    courseTitle: completion.courseTitle || 'Untitled course',
    lessonIds: completion.lessonIds,
    total: completion.lessonIds.length,
    defaultName: defaultName(completion.userId),
  };
  for (let attempt = 1; ; attempt++) {
    try {
      const { rows } = await db.raw(ISSUE, { ...bindings, id: newCertificateId() });
      if (rows[0]) return { id: rows[0].id };
      break;
    } catch (error) {
      // 60 random bits collide about never; when they do, another id.
      const native = error as { code?: string; constraint?: string };
      if (native.code !== '23505' || native.constraint !== 'certificates_pkey' || attempt >= 3) throw error;
    }
  }
  // Not complete, or issued before (perhaps by a request that committed while this one ran): a fresh look.
  const existing = await db('certificates').where({ userId: completion.userId, courseId: completion.courseId });
  return existing[0] ? { id: existing[0].id } : null;
}

/** Locks the certificate for a change (revocation, a corrected name); null when there is none. */
export async function lockCertificate(trx: Knex.Transaction, id: string): Promise<Certificate | null> {
  return (await trx('certificates').where({ id }).forUpdate().first()) ?? null;
}

export async function markRevoked(
  trx: Knex.Transaction,
  id: string,
  revocation: { at: Date; reason: string; byId: string | null },
): Promise<Certificate> {
  const [revoked] = (await trx('certificates')
    .where({ id })
    .update({ revokedAt: revocation.at, revokedReason: revocation.reason, revokedById: revocation.byId })
    .returning('*')) as [Certificate];
  return revoked;
}

/** The corrected name; `byHolder` spends the holder's one correction. */
export async function markNameCorrected(
  trx: Knex.Transaction,
  id: string,
  correction: { name: string; at: Date; byId: string; byHolder: boolean },
): Promise<Certificate> {
  const [corrected] = (await trx('certificates')
    .where({ id })
    .update({
      learnerName: correction.name,
      nameCorrectedAt: correction.at,
      nameCorrectedById: correction.byId,
      ...(correction.byHolder ? { holderCorrectedAt: correction.at } : {}),
    })
    .returning('*')) as [Certificate];
  return corrected;
}

/** 'issued' or 'revoked', as the console lists and filters them. */
export const CERTIFICATE_STATUS = `CASE WHEN certificates.revoked_at IS NULL THEN 'issued' ELSE 'revoked' END`;

/** The columns of a certificate as the console reads it, from `certificates` left-joined with its learner's `users`. */
export const certificateRecordColumns = (db: Knex) => [
  'certificates.*',
  'users.email as learnerEmail',
  db.raw(`${CERTIFICATE_STATUS} AS status`),
];

/** Certificates as the console shows them (the resource in api/src/admin/resources/certificates.ts reads the same). */
export function certificateRecords(db: Knex) {
  return db('certificates').leftJoin('users', 'users.id', 'certificates.userId').select(certificateRecordColumns(db));
}
