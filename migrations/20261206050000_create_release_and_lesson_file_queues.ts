import type { Knex } from 'knex';

/**
 * The queues of two sweeps: the scheduled-release emails (api/src/learning/drip/release-emails.ts) and the removal of
 * deleted lessons' files (api/src/learning/attachments/deleted-lessons.ts). A server's job workers start only once
 * every declared kind has its queue.
 */
const QUEUES = ['release-emails', 'deleted-lesson-files'];

export async function up(knex: Knex): Promise<void> {
  for (const name of QUEUES) {
    await knex.raw(`SELECT pgboss.create_queue(?, '{"policy":"standard"}'::json)`, [name]);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const name of QUEUES) await knex.raw(`SELECT pgboss.delete_queue(?)`, [name]);
}
