import type { Knex } from 'knex';

/**
 * The console's lists of subscriptions and their periods, ordered and filtered from indexes (docs/architecture.md
 * §6); and what the test provider has refunded of each subscription invoice, so a period's charge can be refunded
 * (docs/domain.md §22) as a one-time sale's is.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE INDEX subscriptions_created_at_id ON subscriptions (created_at, id);
    CREATE INDEX subscriptions_current_period_end_id ON subscriptions (current_period_end, id);
    CREATE INDEX subscription_periods_created_at_id ON subscription_periods (created_at, id);
    CREATE INDEX subscription_periods_period_start_id ON subscription_periods (period_start, id);
    CREATE INDEX subscription_periods_subscription_start ON subscription_periods (subscription_id, period_start);
    ALTER TABLE test_provider_subscription_invoices
      ADD COLUMN refunded integer NOT NULL DEFAULT 0,
      ADD CONSTRAINT test_provider_subscription_invoices_refunded_range CHECK (refunded BETWEEN 0 AND amount);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE test_provider_subscription_invoices DROP COLUMN refunded;
    DROP INDEX subscription_periods_subscription_start;
    DROP INDEX subscription_periods_period_start_id;
    DROP INDEX subscription_periods_created_at_id;
    DROP INDEX subscriptions_current_period_end_id;
    DROP INDEX subscriptions_created_at_id;
  `);
}
