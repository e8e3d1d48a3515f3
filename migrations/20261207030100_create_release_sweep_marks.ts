import type { Knex } from 'knex';

/**
 * How far the release-email sweep has read each released module or lesson of a course (api/src/learning/drip/):
 * a sweep reads only openings after the mark (within 3 days), so it no longer re-reads three days of releases every
 * five minutes, and one after downtime still reads from where the last left off. `schedule` is the one the mark was
 * read under ("+3d", "2026-11-10", a lesson's and its module's joined): a changed schedule is read again from 3 days
 * back, as is a release the sweep has not read before.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE release_sweep_marks (
      course_id uuid NOT NULL REFERENCES content_resources(id) ON DELETE CASCADE,
      content_id uuid NOT NULL REFERENCES content_resources(id) ON DELETE CASCADE,
      schedule text NOT NULL,
      swept_until timestamptz NOT NULL,
      PRIMARY KEY (course_id, content_id)
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE release_sweep_marks');
}
