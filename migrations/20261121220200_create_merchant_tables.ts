import type { Knex } from 'knex';

const STATUS_CHECK = `status IN ('active', 'inactive')`;

/** Columns every mirror of a provider object shares; its identifier is unique per merchant account. */
function merchantRecord(knex: Knex, t: Knex.CreateTableBuilder, table: string): void {
  t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
  t.uuid('merchant_account_id').notNullable().references('merchant_accounts.id').onDelete('RESTRICT');
  t.text('identifier').notNullable();
  t.text('status').notNullable().defaultTo('active');
  t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  t.unique(['merchant_account_id', 'identifier']);
  t.check(STATUS_CHECK, [], `${table}_status_known`);
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('merchant_accounts', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('status').notNullable().defaultTo('active');
    t.text('label').notNullable().unique(); // the provider: 'stripe' or 'test'
    t.text('identifier').notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check(STATUS_CHECK, [], 'merchant_accounts_status_known');
  });

  await knex.schema.createTable('merchant_products', (t) => {
    merchantRecord(knex, t, 'merchant_products');
    t.uuid('product_id').notNullable().references('products.id').onDelete('RESTRICT');
    t.index('product_id');
  });

  await knex.schema.createTable('merchant_prices', (t) => {
    merchantRecord(knex, t, 'merchant_prices');
    t.uuid('merchant_product_id').notNullable().references('merchant_products.id').onDelete('RESTRICT');
    t.uuid('price_id').references('prices.id').onDelete('RESTRICT');
    t.index('merchant_product_id');
    t.index('price_id');
  });

  await knex.schema.createTable('merchant_customers', (t) => {
    merchantRecord(knex, t, 'merchant_customers');
    t.uuid('user_id').notNullable().references('users.id').onDelete('RESTRICT');
    t.index('user_id');
  });

  await knex.schema.createTable('merchant_coupons', (t) => {
    merchantRecord(knex, t, 'merchant_coupons');
    t.decimal('percentage_discount', 5, 4).notNullable();
    t.text('type');
    t.check(`percentage_discount > 0 AND percentage_discount <= 1`, [], 'merchant_coupons_percentage_range');
  });

  await knex.schema.createTable('merchant_sessions', (t) => {
    merchantRecord(knex, t, 'merchant_sessions');
  });

  await knex.schema.createTable('merchant_charges', (t) => {
    merchantRecord(knex, t, 'merchant_charges');
    t.integer('amount').notNullable(); // cents, gross
    t.integer('fee').notNullable().defaultTo(0);
    t.integer('refund_amount').notNullable().defaultTo(0);
    t.integer('net').notNullable();
    t.text('currency').notNullable().defaultTo('usd');
    t.jsonb('metadata').notNullable().defaultTo('{}');
    t.uuid('user_id').notNullable().references('users.id').onDelete('RESTRICT');
    t.uuid('merchant_product_id').notNullable().references('merchant_products.id').onDelete('RESTRICT');
    t.uuid('merchant_customer_id').references('merchant_customers.id').onDelete('RESTRICT');
    t.check(`amount >= 0 AND fee >= 0`, [], 'merchant_charges_amounts_range');
    t.check(`refund_amount BETWEEN 0 AND amount`, [], 'merchant_charges_refund_range');
    t.check(`currency ~ '^[a-z]{3}$'`, [], 'merchant_charges_currency_shape');
    t.index('created_at'); // finance exports by date range
    t.index('user_id');
    t.index('merchant_product_id');
    t.index('merchant_customer_id');
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'merchant_charges',
    'merchant_sessions',
    'merchant_coupons',
    'merchant_customers',
    'merchant_prices',
    'merchant_products',
    'merchant_accounts',
  ]) {
    await knex.schema.dropTable(table);
  }
}
