import type { Knex } from 'knex';

/**
 * The test provider keeps what we tell it about a subscription (who, which product and price), as Stripe does, and
 * whether it ends at its period's end.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE test_provider_subscriptions
      ADD COLUMN metadata jsonb NOT NULL DEFAULT '{}',
      ADD COLUMN cancel_at_period_end boolean NOT NULL DEFAULT false`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE test_provider_subscriptions DROP COLUMN metadata, DROP COLUMN cancel_at_period_end`);
}
