import type { Knex } from 'knex';

/**
 * A membership's price says how often it is billed (docs/domain.md §22): one active price per product and interval,
 * so a membership offers a monthly and a yearly price side by side; a course's one price has none. The product's own
 * interval stays the default a subscriber gets without choosing. Existing membership prices take their product's.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE prices ADD COLUMN billing_interval text CHECK (billing_interval IN ('month', 'year'));
    UPDATE prices SET billing_interval = p.billing_interval
      FROM products p WHERE p.id = prices.product_id AND p.billing_interval IS NOT NULL;
    DROP INDEX prices_one_active_per_product;
    CREATE UNIQUE INDEX prices_one_active_per_product
      ON prices (product_id, coalesce(billing_interval, 'once')) WHERE status = 'active';
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    UPDATE prices SET status = 'archived'
      FROM products p
      WHERE p.id = prices.product_id AND prices.status = 'active' AND prices.billing_interval <> p.billing_interval;
    DROP INDEX prices_one_active_per_product;
    CREATE UNIQUE INDEX prices_one_active_per_product ON prices (product_id) WHERE status = 'active';
    ALTER TABLE prices DROP COLUMN billing_interval;
  `);
}
