import type { Knex } from 'knex';
import { GRANTING_STATUSES } from '../../shared/purchase-status';
import { SUBSCRIPTION_OPENS } from '../../shared/subscription-status';

// The SQL behind scheduled release (docs/domain.md §11). Each function is one statement.

/**
 * What gives a learner a course at `now`, each with when it began: their own purchases and team seats (a seat is a
 * purchase of its own), and subscriptions in force, their own (from its start) or a team membership's seat (from
 * the seat, or the subscription's start if later). Same reach as learning/queries.ts's PURCHASES_OPENING.
 */
export const STARTS = `
  SELECT p.user_id, pc.resource_id AS course_id, p.created_at AS started_at
    FROM purchases p JOIN product_content_resources pc ON pc.product_id = p.product_id
   -- Constants of the code, not input: written into the text.
   WHERE p.bulk_coupon_id IS NULL AND p.paid_in_full AND p.status IN (${GRANTING_STATUSES.map((status) => `'${status}'`).join(', ')})
  UNION ALL
  SELECT h.user_id, c.id, greatest(s.created_at, h.held_from)
    FROM subscriptions s JOIN products m ON m.id = s.product_id
    JOIN LATERAL (SELECT s.user_id, s.created_at AS held_from
                  UNION ALL SELECT ss.user_id, ss.created_at FROM subscription_seats ss WHERE ss.subscription_id = s.id) h ON true
    JOIN content_resources c ON c.type = 'course' AND c.deleted_at IS NULL
     AND (m.grants_whole_catalog
          OR EXISTS (SELECT 1 FROM product_content_resources pc WHERE pc.product_id = s.product_id AND pc.resource_id = c.id))
   WHERE ${SUBSCRIPTION_OPENS}`;

/** When the learner's access to the course began: the first of what opens it now; null when nothing does. */
export async function accessStart(db: Knex, courseId: string, userId: string, now: Date): Promise<Date | null> {
  const { rows } = await db.raw(
    `SELECT min(started_at) AS start FROM (${STARTS}) o WHERE o.course_id = :courseId AND o.user_id = :userId`,
    { courseId, userId, now },
  );
  return rows[0]?.start ?? null;
}

/** Starts after `from` (null: any before) up to and including `to`. */
export interface StartWindow {
  from: Date | null;
  to: Date;
}

/**
 * Everyone the course is open to at `now` whose access began within one of `starts`, with when it began and their
 * zone (null: none set). A course's learners are grouped in the database; only those in a window reach the caller.
 */
export async function learnersOfCourse(
  db: Knex,
  courseId: string,
  now: Date,
  starts: StartWindow[],
): Promise<{ userId: string; email: string; start: Date; timeZone: string | null }[]> {
  if (starts.length === 0) return [];
  const { rows } = await db.raw(
    `SELECT * FROM (
       SELECT o.user_id AS "userId", u.email, min(o.started_at) AS start, max(up.fields->>'timeZone') AS "timeZone"
         FROM (${STARTS}) o JOIN users u ON u.id = o.user_id
         LEFT JOIN user_prefs up ON up.user_id = o.user_id AND up.type = 'global' AND up.resource_id IS NULL
        WHERE o.course_id = :courseId
        GROUP BY o.user_id, u.email
     ) learner
     WHERE EXISTS (SELECT 1 FROM jsonb_to_recordset(:starts::jsonb) AS w("from" timestamptz, "to" timestamptz)
                    WHERE learner.start > coalesce(w."from", '-infinity') AND learner.start <= w."to")`,
    { courseId, now, starts: JSON.stringify(starts) },
  );
  return rows;
}

/** The published courses whose links (any of them) schedule a release. */
export async function coursesWithReleases(db: Knex): Promise<string[]> {
  const { rows } = await db.raw(
    `WITH RECURSIVE down AS (
       SELECT c.id AS course_id, l.resource_id, l.metadata, 1 AS depth
         FROM content_resources c JOIN content_resource_resources l ON l.resource_of_id = c.id AND l.deleted_at IS NULL
        WHERE c.type = 'course' AND c.deleted_at IS NULL AND c.fields->>'state' = 'published'
       UNION ALL
       SELECT down.course_id, l.resource_id, l.metadata, down.depth + 1
         FROM down JOIN content_resource_resources l ON l.resource_of_id = down.resource_id AND l.deleted_at IS NULL
        WHERE down.depth < 6
     )
     SELECT DISTINCT course_id AS id FROM down WHERE jsonb_exists_any(metadata, array['releaseAfterDays', 'releaseOn'])`,
  );
  return (rows as { id: string }[]).map((r) => r.id);
}

/** How far the release-email sweep has read each released module or lesson of the course, and under which schedule. */
export async function sweepMarks(
  db: Knex,
  courseId: string,
): Promise<Map<string, { schedule: string; sweptUntil: Date }>> {
  const rows = (await db('releaseSweepMarks').where({ courseId }).select('contentId', 'schedule', 'sweptUntil')) as {
    contentId: string;
    schedule: string;
    sweptUntil: Date;
  }[];
  return new Map(rows.map((row) => [row.contentId, row]));
}

/** Moves the course's marks to `until` (never back: a slower replica's older sweep leaves a later mark as it is). */
export async function markSwept(
  db: Knex,
  courseId: string,
  items: { contentId: string; schedule: string }[],
  until: Date,
): Promise<void> {
  await db('releaseSweepMarks')
    .insert(items.map((item) => ({ courseId, contentId: item.contentId, schedule: item.schedule, sweptUntil: until })))
    .onConflict(['courseId', 'contentId'])
    .merge({
      schedule: db.raw('excluded.schedule'),
      sweptUntil: db.raw('greatest(release_sweep_marks.swept_until, excluded.swept_until)'),
    });
}
