import type { Knex } from 'knex';
import { GRANTING_STATUSES, type PurchaseStatus } from '../shared/purchase-status';
import type { ContentRow, LessonProgress } from './models';
import { prepared } from '../db/prepared';
import { isUuid } from '../shared/uuid';
import { SUBSCRIPTION_OPENS } from '../shared/subscription-status';

// The SQL behind what learners see (learning.ts holds the rules). Each function is one statement.

/** A purchase that may open a course: whether it does depends on its status and country (learning.ts). */
export interface OpeningPurchase {
  status: PurchaseStatus;
  country: string | null;
}

/** Everything of the learner's a lesson page shows: what opens the course, completion, bookmark, video position. */
export interface ViewerOfLesson {
  purchases: OpeningPurchase[];
  completed: boolean;
  bookmarked: boolean;
  /** Where they are in the lesson's video (0 when they never played it). */
  positionMs: number;
}

export interface ProductLink {
  id: string;
  name: string;
  slug: string | null;
}

/** Subscription `s` is the learner's own, or a team membership they hold a seat of (docs/domain.md §22). */
const HOLDS_SUBSCRIPTION = `(s.user_id = :userId
  OR s.id IN (SELECT ss.subscription_id FROM subscription_seats ss WHERE ss.user_id = :userId))`;

// Written out once rather than built per request, and prepared by name (parsed and planned once per connection):
// these run on every lesson view and progress write.
/**
 * The learner's purchases of products that hold the course (a team purchase grants nothing by itself; its owner
 * claims a seat; one being paid in instalments opens it through its plan's subscription until paid in full, §23),
 * and, as a Valid one from anywhere, each subscription of theirs that opens it at :now: a membership
 * holding the course or the whole catalog, its access as SUBSCRIPTION_OPENS says (docs/domain.md §22). `course` is
 * the course's id as SQL: a binding, or a column when many courses are read at once (search).
 */
export const purchasesOpeningOf = (course: string) => `
  SELECT p.status, p.country FROM purchases p JOIN product_content_resources pc ON pc.product_id = p.product_id
   WHERE pc.resource_id = ${course} AND p.user_id = :userId AND p.bulk_coupon_id IS NULL AND p.paid_in_full
  UNION ALL
  SELECT 'Valid', NULL FROM subscriptions s JOIN products m ON m.id = s.product_id
   WHERE ${HOLDS_SUBSCRIPTION} AND ${SUBSCRIPTION_OPENS}
     AND (m.grants_whole_catalog
          OR EXISTS (SELECT 1 FROM product_content_resources pc WHERE pc.product_id = s.product_id AND pc.resource_id = ${course}))`;
const PURCHASES_OPENING = purchasesOpeningOf(':courseId');

const VIEWER_OF_LESSON = `
  SELECT (SELECT coalesce(json_agg(o), '[]'::json) FROM (${PURCHASES_OPENING}) o) AS purchases,
         EXISTS (SELECT 1 FROM lesson_progress WHERE user_id = :userId AND lesson_id = :lessonId AND completed_at IS NOT NULL) AS completed,
         EXISTS (SELECT 1 FROM bookmarks WHERE user_id = :userId AND resource_id = :lessonId AND type = 'bookmark') AS bookmarked,
         coalesce((SELECT position_ms FROM video_positions WHERE user_id = :userId AND lesson_id = :lessonId), 0) AS "positionMs"`;

/** A course not deleted, by slug or id (published or not: the caller decides what learners may see). */
export async function courseBySlugOrId(db: Knex, slugOrId: string): Promise<ContentRow | null> {
  const course: ContentRow | undefined = await db('contentResources')
    .where({ type: 'course' })
    .whereNull('deletedAt')
    .where((q) => (isUuid(slugOrId) ? q.where('id', slugOrId) : q.whereRaw(`fields->>'slug' = ?`, [slugOrId])))
    .first();
  return course ?? null;
}

/** Courses not deleted, by id (published or not: the caller decides what learners may see). */
export async function coursesByIds(db: Knex, courseIds: string[]): Promise<ContentRow[]> {
  return db('contentResources').whereIn('id', courseIds).where({ type: 'course' }).whereNull('deletedAt');
}

/** A course not deleted, by id. */
export async function courseById(db: Knex, courseId: string): Promise<ContentRow | null> {
  const course: ContentRow | undefined = await db('contentResources')
    .where({ id: courseId })
    .whereNull('deletedAt')
    .first();
  return course ?? null;
}

/** Any content resource by id (deleted or not). */
export async function resourceById(db: Knex, id: string): Promise<ContentRow | null> {
  const resource: ContentRow | undefined = await db('contentResources').where({ id }).first();
  return resource ?? null;
}

/**
 * For these lessons, each other course (not `courseId`, not deleted) held by a product that holds them, up to six
 * links up, published or not.
 */
export async function coursesSellingLessons(
  db: Knex,
  courseId: string,
  lessonIds: string[],
): Promise<{ lessonId: string; courseId: string }[]> {
  const { rows } = await db.raw(
    `WITH RECURSIVE up AS (
       SELECT resource_id AS lesson_id, resource_of_id AS id, 1 AS depth
         FROM content_resource_resources WHERE resource_id = ANY(?::uuid[]) AND deleted_at IS NULL
       UNION ALL
       SELECT up.lesson_id, l.resource_of_id, up.depth + 1 FROM content_resource_resources l JOIN up ON l.resource_id = up.id
        WHERE l.deleted_at IS NULL AND up.depth < 6
     )
     SELECT DISTINCT up.lesson_id AS "lessonId", up.id AS "courseId" FROM up JOIN content_resources r ON r.id = up.id
      WHERE r.type = 'course' AND r.deleted_at IS NULL AND r.id <> ?
        AND EXISTS (SELECT 1 FROM product_content_resources pc WHERE pc.resource_id = r.id)`,
    [lessonIds, courseId],
  );
  return rows;
}

/** The published, not private courses that hold a lesson (up to six links up), nearest first. */
export async function publicCoursesOfLesson(db: Knex, lessonId: string): Promise<string[]> {
  const { rows } = await db.raw(
    `WITH RECURSIVE up AS (
       SELECT resource_of_id AS id, 1 AS depth FROM content_resource_resources WHERE resource_id = ? AND deleted_at IS NULL
       UNION ALL
       SELECT l.resource_of_id, up.depth + 1 FROM content_resource_resources l JOIN up ON l.resource_id = up.id
        WHERE l.deleted_at IS NULL AND up.depth < 6
     )
     SELECT r.id FROM up JOIN content_resources r ON r.id = up.id
      WHERE r.type = 'course' AND r.deleted_at IS NULL AND r.fields->>'state' = 'published'
        AND coalesce(r.fields->>'visibility', 'public') <> 'private'
      ORDER BY up.depth`,
    [lessonId],
  );
  return (rows as { id: string }[]).map((r) => r.id);
}

/** The active products that hold a course, in the course's order (a promise, not a builder: callers cache it). */
export async function activeProductsOfCourse(db: Knex, courseId: string): Promise<ProductLink[]> {
  return db('productContentResources as pc')
    .join('products as p', 'p.id', 'pc.productId')
    .where({ 'pc.resourceId': courseId, 'p.status': 'active' })
    .orderBy('pc.position')
    .select('p.id', 'p.name', 'p.slug');
}

/** The learner's own (not team) purchases of products that hold the course. */
export async function purchasesOpening(
  db: Knex,
  courseId: string,
  userId: string,
  now: Date,
): Promise<OpeningPurchase[]> {
  const { rows } = await db
    .raw(PURCHASES_OPENING, { courseId, userId, now })
    .options(prepared(db, 'purchases-opening'));
  return rows;
}

/** The learner's side of a lesson page, in one round trip. */
export async function viewerOfLesson(
  db: Knex,
  courseId: string,
  lessonId: string,
  userId: string,
  now: Date,
): Promise<ViewerOfLesson> {
  const { rows } = await db
    .raw(VIEWER_OF_LESSON, { courseId, lessonId, userId, now })
    .options(prepared(db, 'viewer-of-lesson'));
  return rows[0];
}

/**
 * Each lesson's length in whole minutes: its ready video's, rounded up; else the length staff typed
 * (`fields.durationMinutes`); none when neither is known. The course outline and the sales page both read this.
 */
export async function lessonMinutes(db: Knex, lessonIds: string[]): Promise<Map<string, number>> {
  if (lessonIds.length === 0) return new Map();
  const { rows } = await db.raw(
    `SELECT r.id, CASE
              WHEN v.status = 'ready' THEN ceil(v.duration_ms / 60000.0)::int
              WHEN jsonb_typeof(r.fields->'durationMinutes') = 'number' THEN ceil((r.fields->>'durationMinutes')::numeric)::int
            END AS minutes
       FROM content_resources r LEFT JOIN lesson_videos v ON v.lesson_id = r.id
      WHERE r.id = ANY(?::uuid[])`,
    [lessonIds],
  );
  return new Map(
    (rows as { id: string; minutes: number | null }[]).flatMap((r) => (r.minutes === null ? [] : [[r.id, r.minutes]])),
  );
}

/**
 * The courses the learner's granting, own (not team) purchases hold, and those their subscriptions in force at `now`
 * open: a membership's linked courses, or every course for one over the whole catalog (docs/domain.md §22).
 */
export async function ownedCourseIds(db: Knex, userId: string, now: Date): Promise<string[]> {
  const owned: { courseId: string }[] = await db('purchases as p')
    .join('productContentResources as pc', 'pc.productId', 'p.productId')
    .where('p.userId', userId)
    .whereIn('p.status', GRANTING_STATUSES)
    .whereNull('p.bulkCouponId')
    .where('p.paidInFull', true)
    .distinct('pc.resourceId as courseId')
    .union(
      db.raw(
        `SELECT r.id FROM content_resources r
          WHERE r.type = 'course' AND r.deleted_at IS NULL
            AND EXISTS (SELECT 1 FROM subscriptions s JOIN products m ON m.id = s.product_id
                         WHERE ${HOLDS_SUBSCRIPTION} AND ${SUBSCRIPTION_OPENS}
                           AND (m.grants_whole_catalog OR EXISTS (SELECT 1 FROM product_content_resources pc
                                 WHERE pc.product_id = s.product_id AND pc.resource_id = r.id)))`,
        { userId, now },
      ),
    );
  return owned.map((o) => o.courseId);
}

/** Of these lessons, the ones the learner completed, most recently completed first. */
export async function completedLessonIds(db: Knex, userId: string, lessonIds: string[]): Promise<string[]> {
  const rows: { lessonId: string }[] = await db('lessonProgress')
    .where({ userId })
    .whereIn('lessonId', lessonIds)
    .whereNotNull('completedAt')
    .orderBy('completedAt', 'desc')
    .select('lessonId');
  return rows.map((r) => r.lessonId);
}

/** When the learner completed a lesson (null: not completed, or no row). */
export async function completedAtOf(db: Knex, userId: string, lessonId: string): Promise<Date | null> {
  const row = await db('lessonProgress').where({ userId, lessonId }).first('completedAt');
  return row?.completedAt ?? null;
}

/** Where a completed (or reset) lesson sits, written beside the mark. */
export type ProgressMark = Pick<LessonProgress, 'userId' | 'lessonId' | 'moduleId' | 'sectionId' | 'lessonSlug'>;

/**
 * Marks a lesson complete (or not) and returns which of it and `otherLessonIds` are now complete, in one
 * statement. One row per learner and lesson whatever races: the unique key decides, and completing again keeps
 * the first time it was completed.
 */
export async function writeProgress(
  db: Knex,
  mark: ProgressMark,
  completed: boolean,
  otherLessonIds: string[],
): Promise<string[]> {
  const { userId, lessonId, moduleId, sectionId, lessonSlug } = mark;
  const { rows } = await db
    .raw(completed ? PROGRESS_COMPLETE : PROGRESS_RESET, [
      lessonId,
      lessonSlug,
      moduleId,
      sectionId,
      userId,
      ...(completed ? [moduleId, sectionId] : []),
      userId,
      otherLessonIds,
    ])
    .options(prepared(db, completed ? 'progress-complete' : 'progress-reset'));
  return (rows as { lesson_id: string }[]).map((r) => r.lesson_id);
}

/**
 * The progress write and the lessons complete after it (writeProgress), as fixed texts: they run on every progress
 * write, prepared by name, so their text is written once rather than built by the query builder each time. The
 * statement's snapshot does not see its own write, so this lesson's state comes from what the write returned.
 */
const progressWrite = (completedAt: string, onConflict: string) => `WITH written AS (
    INSERT INTO lesson_progress (completed_at, lesson_id, lesson_slug, module_id, section_id, user_id)
    VALUES (${completedAt}, ?, ?, ?, ?, ?)
    ON CONFLICT (user_id, lesson_id) DO UPDATE SET ${onConflict}
    RETURNING lesson_id, completed_at
  )
  SELECT lesson_id FROM written WHERE completed_at IS NOT NULL
  UNION ALL
  SELECT lesson_id FROM lesson_progress WHERE user_id = ? AND lesson_id = ANY(?::uuid[]) AND completed_at IS NOT NULL`;
// Completing again keeps the first time the lesson was completed.
const PROGRESS_COMPLETE = progressWrite(
  'CURRENT_TIMESTAMP',
  'completed_at = COALESCE(lesson_progress.completed_at, excluded.completed_at), module_id = ?, section_id = ?',
);
const PROGRESS_RESET = progressWrite('NULL', 'completed_at = NULL');

/** Forgets the learner's progress in these lessons. */
export async function forgetProgress(db: Knex, userId: string, lessonIds: string[]): Promise<void> {
  await db('lessonProgress').where({ userId }).whereIn('lessonId', lessonIds).delete();
}
