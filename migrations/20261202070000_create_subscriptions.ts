import type { Knex } from 'knex';

/**
 * Memberships (docs/domain.md §22): a membership product's billing interval, trial and reach (its linked courses or
 * the whole catalog); the subscriptions bought, one row per billed period (a paid one links its charge and invoice);
 * and the built-in test provider's own subscriptions and their invoices.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE products
      ADD COLUMN billing_interval text CHECK (billing_interval IN ('month', 'year')),
      ADD COLUMN trial_days integer NOT NULL DEFAULT 0 CHECK (trial_days BETWEEN 0 AND 365),
      ADD COLUMN grants_whole_catalog boolean NOT NULL DEFAULT false,
      ADD CONSTRAINT products_billing_interval_membership CHECK (billing_interval IS NULL OR product_type = 'membership'),
      ADD CONSTRAINT products_whole_catalog_membership CHECK (NOT grants_whole_catalog OR product_type = 'membership');

    CREATE TABLE subscriptions (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id),
      product_id uuid NOT NULL REFERENCES products(id),
      price_id uuid NOT NULL REFERENCES prices(id),
      merchant_account_id uuid NOT NULL REFERENCES merchant_accounts(id),
      provider_identifier text NOT NULL,
      status text NOT NULL CHECK (status IN ('trialing', 'active', 'past_due', 'canceled', 'lapsed')),
      current_period_start timestamptz NOT NULL,
      current_period_end timestamptz NOT NULL,
      cancel_at_period_end boolean NOT NULL DEFAULT false,
      grace_until timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (merchant_account_id, provider_identifier),
      CHECK (current_period_end > current_period_start),
      CHECK ((status = 'past_due') = (grace_until IS NOT NULL))
    );
    CREATE INDEX subscriptions_user_id_idx ON subscriptions (user_id, product_id);
    CREATE INDEX subscriptions_product_id_idx ON subscriptions (product_id);

    CREATE TABLE subscription_periods (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      subscription_id uuid NOT NULL REFERENCES subscriptions(id),
      provider_invoice_identifier text NOT NULL,
      outcome text NOT NULL CHECK (outcome IN ('trial', 'paid', 'failed')),
      period_start timestamptz NOT NULL,
      period_end timestamptz NOT NULL,
      merchant_charge_id uuid REFERENCES merchant_charges(id),
      invoice_id uuid REFERENCES invoices(id),
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (subscription_id, provider_invoice_identifier),
      CHECK (period_end > period_start),
      CHECK ((outcome = 'paid') = (merchant_charge_id IS NOT NULL))
    );
    -- A period is paid once, whatever the provider sends twice.
    CREATE UNIQUE INDEX subscription_periods_paid_once ON subscription_periods (subscription_id, period_start)
      WHERE outcome = 'paid';
    CREATE UNIQUE INDEX subscription_periods_charge_idx ON subscription_periods (merchant_charge_id);

    CREATE TABLE test_provider_subscriptions (
      identifier text PRIMARY KEY,
      reference text NOT NULL UNIQUE,
      status text NOT NULL CHECK (status IN ('incomplete', 'trialing', 'active', 'past_due', 'canceled')),
      amount integer NOT NULL CHECK (amount >= 0),
      currency text NOT NULL,
      interval text NOT NULL CHECK (interval IN ('month', 'year')),
      trial_days integer NOT NULL DEFAULT 0,
      description text NOT NULL,
      customer_email text NOT NULL,
      customer_identifier text,
      success_url text NOT NULL,
      cancel_url text NOT NULL,
      current_period_start timestamptz,
      current_period_end timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE test_provider_subscription_invoices (
      identifier text PRIMARY KEY,
      subscription_identifier text NOT NULL REFERENCES test_provider_subscriptions(identifier),
      -- A renewal asked with the same key is the same invoice.
      idempotency_key text UNIQUE,
      status text NOT NULL CHECK (status IN ('trial', 'paid', 'failed')),
      amount integer NOT NULL CHECK (amount >= 0),
      currency text NOT NULL,
      charge_identifier text UNIQUE,
      period_start timestamptz NOT NULL,
      period_end timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX test_provider_subscription_invoices_paid_once
      ON test_provider_subscription_invoices (subscription_identifier, period_start) WHERE status IN ('paid', 'trial');
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TABLE test_provider_subscription_invoices;
    DROP TABLE test_provider_subscriptions;
    DROP TABLE subscription_periods;
    DROP TABLE subscriptions;
    ALTER TABLE products DROP COLUMN grants_whole_catalog, DROP COLUMN trial_days, DROP COLUMN billing_interval;
  `);
}
