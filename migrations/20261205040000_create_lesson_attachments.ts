import type { Knex } from 'knex';

/**
 * Files attached to a lesson for its readers to download (docs/domain.md §11): slides, code, PDFs, archives. The
 * bytes are in the media storage under `storage_key`; the row keeps the name as uploaded (any script, shown and sent
 * back as the download's name), what it is and its size, and its place in the lesson's list (unique per lesson,
 * checked at commit so a reorder moves every row in one statement).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('lesson_attachments', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('lesson_id').notNullable().references('content_resources.id').onDelete('CASCADE');
    t.text('storage_key').notNullable().unique();
    t.text('file_name').notNullable();
    t.text('content_type').notNullable();
    t.bigInteger('size_bytes').notNullable();
    t.integer('position').notNullable();
    t.uuid('created_by_id').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['lesson_id', 'position'], { deferrable: 'deferred', indexName: 'lesson_attachments_lesson_position' });
    t.check('char_length(file_name) BETWEEN 1 AND 255', [], 'lesson_attachments_file_name_length');
    t.check('size_bytes > 0', [], 'lesson_attachments_size_positive');
    t.check('position >= 0', [], 'lesson_attachments_position_natural');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('lesson_attachments');
}
