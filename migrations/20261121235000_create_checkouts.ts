import type { Knex } from 'knex';
import { addUpdatedAtTrigger, timestamps } from './helpers';

export async function up(knex: Knex): Promise<void> {
  // Our record of each checkout: what was quoted and to whom. Fulfilment reads it, never the client or the
  // provider's metadata, and locks it so that exactly one fulfilment wins.
  await knex.schema.createTable('checkouts', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('merchant_session_id').unique().references('merchant_sessions.id').onDelete('RESTRICT');
    t.uuid('product_id').notNullable().references('products.id').onDelete('RESTRICT');
    t.uuid('price_id').notNullable().references('prices.id').onDelete('RESTRICT');
    t.integer('quantity').notNullable();
    t.boolean('team').notNullable().defaultTo(false);
    t.uuid('coupon_id').references('coupons.id').onDelete('RESTRICT');
    t.uuid('upgrade_from_id').references('purchases.id').onDelete('RESTRICT');
    t.uuid('buyer_user_id').references('users.id').onDelete('RESTRICT');
    t.text('buyer_email').notNullable();
    t.text('country');
    t.text('ip_address');
    t.text('city');
    t.text('state');
    t.integer('amount_total').notNullable();
    t.text('currency').notNullable();
    t.boolean('restricted').notNullable().defaultTo(false);
    t.text('status').notNullable().defaultTo('open');
    t.uuid('purchase_id').references('purchases.id').onDelete('RESTRICT');
    timestamps(knex, t);
    t.check(`status IN ('open', 'fulfilled', 'refunded', 'canceled')`, [], 'checkouts_status_known');
    t.check(`quantity BETWEEN 1 AND 100`, [], 'checkouts_quantity_range');
    t.check(`amount_total >= 0`, [], 'checkouts_amount_range');
    t.index(['buyer_user_id', 'created_at']);
    t.index(['product_id', 'status']);
  });
  await addUpdatedAtTrigger(knex, 'checkouts');

  // The built-in test provider's own state: what a real provider would keep on its side.
  await knex.schema.createTable('test_provider_sessions', (t) => {
    t.text('identifier').primary(); // cs_test_…
    t.integer('amount').notNullable();
    t.text('currency').notNullable();
    t.text('description').notNullable();
    t.text('customer_email').notNullable();
    t.text('status').notNullable().defaultTo('open');
    t.text('charge_identifier').unique();
    t.text('customer_identifier');
    t.integer('refunded').notNullable().defaultTo(0);
    t.text('success_url').notNullable();
    t.text('cancel_url').notNullable();
    t.timestamp('paid_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check(`status IN ('open', 'paid', 'canceled')`, [], 'test_provider_sessions_status_known');
  });
  await knex.schema.createTable('test_provider_refunds', (t) => {
    t.text('idempotency_key').primary(); // a key seen twice refunds once
    t.text('charge_identifier').notNullable();
    t.integer('amount').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('test_provider_refunds');
  await knex.schema.dropTable('test_provider_sessions');
  await knex.schema.dropTable('checkouts');
}
