import type { Knex } from 'knex';

/**
 * The billing postal code: Stripe Tax places a US buyer by their ZIP code (a state alone is not enough), and a
 * Canadian one by their province or postal code; the invoice's buyer address names it. Given at checkout (kept on the
 * checkout, as its other billing details) and remembered for the buyer's next checkout.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('checkouts', (t) => {
    t.text('billing_postal_code');
  });
  await knex.schema.alterTable('billing_profiles', (t) => {
    t.text('postal_code').notNullable().defaultTo('');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('billing_profiles', (t) => {
    t.dropColumn('postal_code');
  });
  await knex.schema.alterTable('checkouts', (t) => {
    t.dropColumn('billing_postal_code');
  });
}
