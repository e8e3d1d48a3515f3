import type { Knex } from 'knex';
import { createIndexConcurrently, dropIndexConcurrently } from './concurrent-index';

// Built concurrently: the audit log and the outbox stay writable while they build (outside a transaction, as that
// requires).
export const config = { transaction: false };

/**
 * A person's timeline reads each source newest first through an index: the audit log's entries about one record
 * (a heavy record has thousands), and the emails sent to one address.
 */
export async function up(knex: Knex): Promise<void> {
  // Each old index is a prefix of its new one, dropped only once the new one is built and valid.
  await createIndexConcurrently(
    knex,
    'audit_logs_about_record_by_date',
    'audit_logs (resource, record_id, created_at)',
  );
  await dropIndexConcurrently(knex, 'audit_logs_resource_record_id_index');
  await createIndexConcurrently(knex, 'outbox_emails_to_address_by_date', 'outbox_emails (to_address, created_at)');
  await dropIndexConcurrently(knex, 'outbox_emails_to_address_index');
}

export async function down(knex: Knex): Promise<void> {
  await createIndexConcurrently(knex, 'audit_logs_resource_record_id_index', 'audit_logs (resource, record_id)');
  await createIndexConcurrently(knex, 'outbox_emails_to_address_index', 'outbox_emails (to_address)');
  await dropIndexConcurrently(knex, 'outbox_emails_to_address_by_date');
  await dropIndexConcurrently(knex, 'audit_logs_about_record_by_date');
}
