import type { Knex } from 'knex';

// Built concurrently: the audit log and the outbox stay writable while they build (outside a transaction, as that
// requires).
export const config = { transaction: false };

/**
 * A person's timeline reads each source newest first through an index: the audit log's entries about one record
 * (a heavy record has thousands), and the emails sent to one address.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    'CREATE INDEX CONCURRENTLY IF NOT EXISTS audit_logs_about_record_by_date ON audit_logs (resource, record_id, created_at)',
  );
  await knex.raw(
    'CREATE INDEX CONCURRENTLY IF NOT EXISTS outbox_emails_to_address_by_date ON outbox_emails (to_address, created_at)',
  );
  // Both are prefixes of the new ones.
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS audit_logs_resource_record_id_index');
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS outbox_emails_to_address_index');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(
    'CREATE INDEX CONCURRENTLY IF NOT EXISTS audit_logs_resource_record_id_index ON audit_logs (resource, record_id)',
  );
  await knex.raw(
    'CREATE INDEX CONCURRENTLY IF NOT EXISTS outbox_emails_to_address_index ON outbox_emails (to_address)',
  );
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS outbox_emails_to_address_by_date');
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS audit_logs_about_record_by_date');
}
