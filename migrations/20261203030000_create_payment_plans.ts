import type { Knex } from 'knex';
import { addUpdatedAtTrigger } from './helpers';

/**
 * Payment plans (docs/domain.md §23): a course sold in a number of monthly instalments beside its one-time price.
 * The plan is the product's (one offered at a time, older ones archived for history); the subscription that bills
 * it names it; the purchase it opens names that subscription and says whether it is paid in full, and since when
 * (the transfer window counts from then). The test provider ends a subscription by itself after its iterations.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE TABLE payment_plans (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      product_id uuid NOT NULL REFERENCES products(id) ON DELETE CASCADE,
      status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived')),
      instalments integer NOT NULL CHECK (instalments BETWEEN 2 AND 24),
      instalment_amount integer NOT NULL CHECK (instalment_amount > 0),
      currency text NOT NULL CHECK (currency ~ '^[a-z]{3}$'),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX payment_plans_product_id_idx ON payment_plans (product_id, created_at);
    -- A product offers one plan at a time.
    CREATE UNIQUE INDEX payment_plans_one_active_per_product ON payment_plans (product_id) WHERE status = 'active';

    ALTER TABLE subscriptions ADD COLUMN payment_plan_id uuid REFERENCES payment_plans(id);
    CREATE INDEX subscriptions_payment_plan_id_idx ON subscriptions (payment_plan_id) WHERE payment_plan_id IS NOT NULL;

    ALTER TABLE purchases
      ADD COLUMN payment_plan_subscription_id uuid UNIQUE REFERENCES subscriptions(id),
      ADD COLUMN paid_in_full boolean NOT NULL DEFAULT true,
      ADD COLUMN paid_in_full_at timestamptz,
      ADD CONSTRAINT purchases_paid_in_full_plan CHECK (paid_in_full OR payment_plan_subscription_id IS NOT NULL),
      ADD CONSTRAINT purchases_paid_in_full_at_plan CHECK (
        paid_in_full_at IS NULL OR (paid_in_full AND payment_plan_subscription_id IS NOT NULL));

    ALTER TABLE test_provider_subscriptions ADD COLUMN iterations integer CHECK (iterations > 0);
  `);
  await addUpdatedAtTrigger(knex, 'payment_plans');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE test_provider_subscriptions DROP COLUMN iterations;
    ALTER TABLE purchases DROP CONSTRAINT purchases_paid_in_full_at_plan, DROP CONSTRAINT purchases_paid_in_full_plan,
      DROP COLUMN paid_in_full_at, DROP COLUMN paid_in_full, DROP COLUMN payment_plan_subscription_id;
    ALTER TABLE subscriptions DROP COLUMN payment_plan_id;
    DROP TABLE payment_plans;
  `);
}
