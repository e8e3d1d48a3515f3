import type { Knex } from 'knex';

/**
 * A subscription keeps the billing details its subscriber gave (a business's name, address and postal code; the
 * country, region and VAT ID are its tax place already), so every period's invoice names the buyer as a purchase's does.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE subscriptions
      ADD COLUMN billing_company text,
      ADD COLUMN billing_address text,
      ADD COLUMN billing_postal_code text
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE subscriptions
      DROP COLUMN billing_company,
      DROP COLUMN billing_address,
      DROP COLUMN billing_postal_code
  `);
}
