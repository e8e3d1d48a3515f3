import type { Knex } from 'knex';

/**
 * The queue of the job that issues the invoices of charges recorded before invoices (api/src/invoices/earlier-charges.ts),
 * queued at boot while any charge waits for one.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`SELECT pgboss.create_queue('issue-earlier-invoices', '{"policy":"standard"}'::json)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`SELECT pgboss.delete_queue('issue-earlier-invoices')`);
}
