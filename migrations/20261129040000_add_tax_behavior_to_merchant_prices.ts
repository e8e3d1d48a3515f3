import type { Knex } from 'knex';

/**
 * A Stripe price says once whether tax is inside it or added on top (its tax_behavior cannot change), so a price of
 * ours is mirrored at Stripe once per behavior it is sold with: null for prices synced without tax.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('merchant_prices', (t) => {
    t.text('tax_behavior');
    t.check(
      `tax_behavior IS NULL OR tax_behavior IN ('inclusive', 'exclusive')`,
      [],
      'merchant_prices_tax_behavior_known',
    );
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('merchant_prices', (t) => {
    t.dropChecks(['merchant_prices_tax_behavior_known']);
    t.dropColumn('tax_behavior');
  });
}
