import type { Knex } from 'knex';
import PgBoss from 'pg-boss';
import { knexExecutor } from '../api/src/jobs/knex-executor';

// pg-boss's statements open and commit their own transaction.
export const config = { transaction: false };

const SCHEMA = 'pgboss';
/** The queues of this release (the last is pg-boss's own, for schedules); a later kind of job adds its queue in a migration. */
const QUEUES = ['send-email', 'expire-transfers', 'expire-checkouts', 'prune', '__pgboss__send-it'];

/**
 * The job queue's tables (pg-boss 10's schema, installed here rather than by each server at boot, so the release
 * step is the only thing that changes the schema), and one queue per kind of background job.
 */
export async function up(knex: Knex): Promise<void> {
  const installed = await knex.raw(`SELECT 1 FROM pg_namespace WHERE nspname = ?`, [SCHEMA]);
  if (!installed.rows.length) await knex.raw(PgBoss.getConstructionPlans(SCHEMA));
  for (const name of QUEUES) {
    await knex.raw(`SELECT ${SCHEMA}.create_queue(?, ?::json)`, [name, JSON.stringify({ policy: 'standard' })]);
  }
  await queueUnsentEmails(knex);
}

/** Emails the outbox held unsent before the queue existed get their delivery job, as new ones do. */
export async function queueUnsentEmails(knex: Knex): Promise<void> {
  const unsent: { id: string }[] = await knex('outbox_emails').where('status', 'pending').select('id');
  if (!unsent.length) return;
  const boss = new PgBoss({ db: knexExecutor(knex), schema: SCHEMA, migrate: false });
  await boss.insert(
    unsent.map(({ id }) => ({
      name: 'send-email',
      data: { emailId: id },
      retryLimit: 5,
      retryDelay: 30,
      retryBackoff: true,
      expireInSeconds: 120,
    })),
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
}
