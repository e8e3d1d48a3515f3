import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // Every provider event is stored once by its id: a redelivery is recognised and answered without work.
  await knex.schema.createTable('merchant_events', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('merchant_account_id').notNullable().references('merchant_accounts.id').onDelete('RESTRICT');
    t.text('identifier').notNullable(); // evt_…
    t.text('type').notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('processed_at', { useTz: true });
    t.unique(['merchant_account_id', 'identifier']);
    t.index('received_at');
  });

  // Refunds asked of the provider, with who asked and why; the idempotency key makes a retry refund once. A
  // refund is reserved (pending) before the provider is called, so no row lock is held across the network.
  await knex.schema.createTable('merchant_refunds', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('merchant_account_id').notNullable().references('merchant_accounts.id').onDelete('RESTRICT');
    t.text('identifier'); // re_…, once the provider answered
    t.text('status').notNullable().defaultTo('pending');
    t.uuid('merchant_charge_id').notNullable().references('merchant_charges.id').onDelete('RESTRICT');
    t.integer('amount').notNullable();
    t.text('reason').notNullable();
    t.text('idempotency_key').notNullable().unique();
    t.uuid('requested_by_id').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['merchant_account_id', 'identifier']);
    t.index('merchant_charge_id');
    t.check('amount > 0', [], 'merchant_refunds_amount_range');
    t.check(`status IN ('pending', 'succeeded', 'failed')`, [], 'merchant_refunds_status_known');
    t.check(`status <> 'succeeded' OR identifier IS NOT NULL`, [], 'merchant_refunds_identified');
  });

  // Disputes by the provider's id. A closed dispute never reopens, whatever order the events arrive in.
  await knex.schema.createTable('merchant_disputes', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('merchant_account_id').notNullable().references('merchant_accounts.id').onDelete('RESTRICT');
    t.text('identifier').notNullable(); // dp_…
    t.uuid('merchant_charge_id').notNullable().references('merchant_charges.id').onDelete('RESTRICT');
    t.integer('amount').notNullable();
    t.text('reason');
    t.text('status').notNullable().defaultTo('open');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('closed_at', { useTz: true });
    t.unique(['merchant_account_id', 'identifier']);
    t.index('merchant_charge_id');
    t.check(`status IN ('open', 'won', 'lost')`, [], 'merchant_disputes_status_known');
  });

  // A limited coupon's use is taken when the checkout starts, so that N buyers racing for M uses get M;
  // a checkout that is canceled or expires gives its use back.
  await knex.schema.alterTable('checkouts', (t) => {
    t.boolean('coupon_reserved').notNullable().defaultTo(false);
  });

  // Why staff banned a purchase or refunded it, shown with the purchase.
  await knex.schema.alterTable('purchases', (t) => {
    t.text('status_reason');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('purchases', (t) => t.dropColumn('status_reason'));
  await knex.schema.alterTable('checkouts', (t) => t.dropColumn('coupon_reserved'));
  await knex.schema.dropTable('merchant_disputes');
  await knex.schema.dropTable('merchant_refunds');
  await knex.schema.dropTable('merchant_events');
}
