import type { Knex } from 'knex';

/**
 * What each period of a membership costs (docs/domain.md §22): a coupon's duration (its first period only, a number
 * of periods, or forever); a subscription's seats, coupon and the buyer's tax place, kept from the day they subscribed;
 * who holds a team membership's seats; and what the test provider bills each period (seats, the coupon's discount
 * and the periods it has left, tax added on top).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE coupons
      ADD COLUMN duration text NOT NULL DEFAULT 'once' CHECK (duration IN ('once', 'repeating', 'forever')),
      ADD COLUMN duration_periods integer CHECK (duration_periods BETWEEN 1 AND 120),
      ADD CONSTRAINT coupons_duration_periods CHECK ((duration = 'repeating') = (duration_periods IS NOT NULL));

    ALTER TABLE subscriptions
      ADD COLUMN quantity integer NOT NULL DEFAULT 1 CHECK (quantity BETWEEN 1 AND 100),
      ADD COLUMN coupon_id uuid REFERENCES coupons(id) ON DELETE SET NULL,
      ADD COLUMN tax_country text,
      ADD COLUMN tax_region text,
      ADD COLUMN tax_vat_id text,
      ADD COLUMN seat_code text UNIQUE;
    CREATE INDEX subscriptions_coupon_id_idx ON subscriptions (coupon_id) WHERE coupon_id IS NOT NULL;

    ALTER TABLE subscription_periods
      ADD COLUMN discount_amount integer NOT NULL DEFAULT 0 CHECK (discount_amount >= 0),
      ADD COLUMN coupon_id uuid REFERENCES coupons(id) ON DELETE SET NULL;

    CREATE TABLE subscription_seats (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      subscription_id uuid NOT NULL REFERENCES subscriptions(id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (subscription_id, user_id)
    );
    CREATE INDEX subscription_seats_user_id_idx ON subscription_seats (user_id);

    ALTER TABLE test_provider_subscriptions
      ADD COLUMN quantity integer NOT NULL DEFAULT 1 CHECK (quantity >= 1),
      ADD COLUMN discount_bp integer NOT NULL DEFAULT 0 CHECK (discount_bp BETWEEN 0 AND 10000),
      ADD COLUMN discount_periods_left integer CHECK (discount_periods_left >= 0),
      ADD COLUMN tax_on_top_bp integer NOT NULL DEFAULT 0 CHECK (tax_on_top_bp >= 0);
    ALTER TABLE test_provider_subscription_invoices
      ADD COLUMN discount_amount integer NOT NULL DEFAULT 0 CHECK (discount_amount >= 0),
      ADD COLUMN tax_amount integer NOT NULL DEFAULT 0 CHECK (tax_amount >= 0);
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE test_provider_subscription_invoices DROP COLUMN tax_amount, DROP COLUMN discount_amount;
    ALTER TABLE test_provider_subscriptions
      DROP COLUMN tax_on_top_bp, DROP COLUMN discount_periods_left, DROP COLUMN discount_bp, DROP COLUMN quantity;
    DROP TABLE subscription_seats;
    ALTER TABLE subscription_periods DROP COLUMN coupon_id, DROP COLUMN discount_amount;
    ALTER TABLE subscriptions
      DROP COLUMN seat_code, DROP COLUMN tax_vat_id, DROP COLUMN tax_region, DROP COLUMN tax_country,
      DROP COLUMN coupon_id, DROP COLUMN quantity;
    ALTER TABLE coupons DROP CONSTRAINT coupons_duration_periods, DROP COLUMN duration_periods, DROP COLUMN duration;
  `);
}
