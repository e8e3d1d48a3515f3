import type { Knex } from 'knex';
import { addUpdatedAtTrigger, inList, timestamps } from './helpers';

// Spelled out here, not imported: a landed migration must not change meaning when the code does.
const VIDEO_STATUSES = ['queued', 'processing', 'ready', 'failed'];
const CERTIFICATE_ID = '^[0-9A-HJKMNP-TV-Z]{12}$';

/**
 * Video lessons and certificates of completion (issue 18).
 *
 * - lesson_videos: one video per lesson. Its source (the file as uploaded) and what processing made (HLS renditions
 *   under `videos/<id>/v<version>/`, a poster) are keys in the media storage. A new source bumps `version`, so a run
 *   still processing the old one cannot overwrite the new one's state.
 * - video_captions: WebVTT per language (a file of at most 1 MB, kept in the row); its cues are the transcript.
 * - video_positions: where each learner is in each lesson's video, resumed on any device.
 * Times are integer milliseconds, like money is integer cents.
 * - certificates: issued once per learner and course, with the name and title as they were; revoked with a reason.
 *   The course may go away (a hard delete): the certificate stays verifiable.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('lesson_videos', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('lesson_id').notNullable().unique().references('content_resources.id').onDelete('CASCADE');
    t.text('status').notNullable().defaultTo('queued');
    t.integer('progress').notNullable().defaultTo(0);
    t.text('error');
    t.integer('version').notNullable().defaultTo(1);
    t.text('source_key').notNullable();
    t.text('source_name').notNullable();
    t.bigInteger('source_size').notNullable();
    t.integer('duration_ms');
    t.integer('width');
    t.integer('height');
    t.specificType('rendition_heights', 'integer[]').notNullable().defaultTo('{}');
    t.text('hls_key');
    t.text('poster_key');
    t.timestamp('processed_at', { useTz: true });
    timestamps(knex, t);
    t.check(`status IN (${inList(VIDEO_STATUSES)})`, [], 'lesson_videos_status');
    t.check('progress BETWEEN 0 AND 100', [], 'lesson_videos_progress_range');
    t.check('version >= 1', [], 'lesson_videos_version_range');
    t.check('source_size >= 0', [], 'lesson_videos_source_size_range');
    t.check('duration_ms IS NULL OR duration_ms > 0', [], 'lesson_videos_duration_range');
    t.check(`status <> 'ready' OR (hls_key IS NOT NULL AND duration_ms IS NOT NULL)`, [], 'lesson_videos_ready');
    t.check(`status <> 'failed' OR error IS NOT NULL`, [], 'lesson_videos_failed_reason');
  });
  await addUpdatedAtTrigger(knex, 'lesson_videos');

  await knex.schema.createTable('video_captions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('video_id').notNullable().references('lesson_videos.id').onDelete('CASCADE');
    t.text('language').notNullable();
    t.text('label').notNullable();
    t.text('vtt').notNullable();
    timestamps(knex, t);
    t.unique(['video_id', 'language']);
    t.check(`language ~ '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$'`, [], 'video_captions_language_shape');
    t.check('char_length(label) BETWEEN 1 AND 60', [], 'video_captions_label_length');
    t.check('octet_length(vtt) <= 1048576', [], 'video_captions_vtt_size');
  });
  await addUpdatedAtTrigger(knex, 'video_captions');

  await knex.schema.createTable('video_positions', (t) => {
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('lesson_id').notNullable().references('content_resources.id').onDelete('CASCADE');
    t.integer('position_ms').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['user_id', 'lesson_id']);
    t.check('position_ms >= 0', [], 'video_positions_position_range');
  });

  await knex.schema.createTable('certificates', (t) => {
    t.text('id').primary();
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('course_id').references('content_resources.id').onDelete('SET NULL');
    t.text('learner_name').notNullable();
    t.text('course_title').notNullable();
    t.timestamp('issued_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('revoked_at', { useTz: true });
    t.text('revoked_reason');
    t.uuid('revoked_by_id').references('users.id').onDelete('SET NULL');
    timestamps(knex, t);
    t.unique(['user_id', 'course_id']);
    t.check(`id ~ '${CERTIFICATE_ID}'`, [], 'certificates_id_shape');
    t.check('char_length(learner_name) BETWEEN 1 AND 200', [], 'certificates_learner_name_length');
    t.check('(revoked_at IS NULL) = (revoked_reason IS NULL)', [], 'certificates_revoked_with_reason');
    t.check(
      'revoked_reason IS NULL OR char_length(revoked_reason) BETWEEN 1 AND 500',
      [],
      'certificates_reason_length',
    );
    t.index(['course_id']);
  });
  await addUpdatedAtTrigger(knex, 'certificates');

  await knex.raw(`SELECT pgboss.create_queue('process-video', '{"policy":"standard"}'::json)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`SELECT pgboss.delete_queue('process-video')`);
  await knex.schema.dropTable('certificates');
  await knex.schema.dropTable('video_positions');
  await knex.schema.dropTable('video_captions');
  await knex.schema.dropTable('lesson_videos');
}
