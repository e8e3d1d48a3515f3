import type { Knex } from 'knex';

/**
 * A failed lesson video says why twice: in words staff read (`error`) and as a stable code programs can test
 * (`error_code`: `video-playlist-refused`, `video-unreadable` …). Expand only: null for what failed before.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('lesson_videos', (t) => {
    t.string('error_code', 60).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('lesson_videos', (t) => {
    t.dropColumn('error_code');
  });
}
