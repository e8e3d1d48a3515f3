import type { Knex } from 'knex';

/**
 * Stored bytes still to remove (api/src/learning/attachments/): a file deleted in the console loses its row at once,
 * and its key waits here until the storage has removed the bytes, retried by the hourly deleted-lesson-files job when
 * the storage failed (a delete never answers 500 for it).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE lesson_file_removals (
      storage_key text PRIMARY KEY,
      created_at timestamptz NOT NULL DEFAULT now()
    );
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TABLE lesson_file_removals');
}
