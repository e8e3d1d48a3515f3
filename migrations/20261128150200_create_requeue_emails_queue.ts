import type { Knex } from 'knex';

/**
 * The queue of the outbox's minute sweep, which gives an unsent email left with no job to send it (its last run
 * died with its process) a new one.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`SELECT pgboss.create_queue('requeue-emails', '{"policy":"standard"}'::json)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`SELECT pgboss.delete_queue('requeue-emails')`);
}
