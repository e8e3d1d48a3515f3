import type { Knex } from 'knex';

/**
 * Refunds a provider accepts but settles later (docs/domain.md §6.4). Ours keep, while pending, the email to send the
 * buyer once the refund succeeds, and, if it fails, the provider's reason; the built-in test provider keeps each of
 * its refunds' state, as a real provider does. Expand only: every refund so far succeeded at once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('merchant_refunds', (t) => {
    t.jsonb('email_on_success');
    t.text('failure_reason');
  });
  await knex.schema.alterTable('test_provider_refunds', (t) => {
    t.text('status').notNullable().defaultTo('succeeded');
    t.check(`status IN ('pending', 'succeeded', 'failed')`, [], 'test_provider_refunds_status_known');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('test_provider_refunds', (t) => t.dropColumn('status'));
  await knex.schema.alterTable('merchant_refunds', (t) => {
    t.dropColumn('email_on_success');
    t.dropColumn('failure_reason');
  });
}
