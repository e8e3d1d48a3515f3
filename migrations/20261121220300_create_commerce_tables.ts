import type { Knex } from 'knex';
import { addUpdatedAtTrigger, inList, timestamps } from './helpers';

const PURCHASE_STATUSES = ['Valid', 'Restricted', 'Refunded', 'Disputed', 'Banned'];
const TRANSFER_STATES = ['AVAILABLE', 'INITIATED', 'VERIFIED', 'CANCELED', 'EXPIRED', 'CONFIRMED', 'COMPLETED'];
const OPEN_TRANSFER_STATES = ['AVAILABLE', 'INITIATED', 'VERIFIED', 'CONFIRMED'];
const SPLIT_TYPES = ['platform', 'owner', 'contributor'];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('coupons', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('code');
    t.timestamp('expires', { useTz: true });
    t.integer('max_uses').notNullable().defaultTo(-1); // -1 = unlimited
    t.integer('used_count').notNullable().defaultTo(0);
    t.boolean('default').notNullable().defaultTo(false);
    t.text('status').notNullable().defaultTo('active');
    t.decimal('percentage_discount', 5, 4).notNullable();
    t.uuid('merchant_coupon_id').references('merchant_coupons.id').onDelete('SET NULL');
    t.uuid('restricted_to_product_id').references('products.id').onDelete('CASCADE');
    t.uuid('bulk_purchase_id'); // the foreign key is added once purchases exist
    timestamps(knex, t);
    t.check(`status IN ('active', 'inactive')`, [], 'coupons_status_known');
    t.check(`percentage_discount > 0 AND percentage_discount <= 1`, [], 'coupons_percentage_range');
    t.check(`max_uses = -1 OR max_uses >= 0`, [], 'coupons_max_uses_range');
    t.check(`used_count >= 0 AND (max_uses = -1 OR used_count <= max_uses)`, [], 'coupons_used_count_range');
    t.check(`code IS NULL OR char_length(code) BETWEEN 1 AND 64`, [], 'coupons_code_length');
    t.index('restricted_to_product_id');
    t.index('merchant_coupon_id');
  });
  await knex.raw('CREATE UNIQUE INDEX coupons_code_unique ON coupons (lower(code)) WHERE code IS NOT NULL');
  await knex.raw(
    `CREATE INDEX coupons_active_defaults ON coupons (percentage_discount DESC) WHERE "default" AND status = 'active'`,
  );

  await knex.schema.createTable('purchases', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('users.id').onDelete('RESTRICT');
    t.uuid('product_id').notNullable().references('products.id').onDelete('RESTRICT');
    t.text('status').notNullable().defaultTo('Valid');
    t.integer('total_amount').notNullable().defaultTo(0); // cents actually paid
    t.text('currency').notNullable().defaultTo('usd');
    t.text('ip_address');
    t.text('city');
    t.text('state');
    t.text('country'); // ISO 3166-1 alpha-2
    t.uuid('coupon_id').references('coupons.id').onDelete('RESTRICT');
    t.uuid('bulk_coupon_id').references('coupons.id').onDelete('RESTRICT');
    t.uuid('redeemed_bulk_coupon_id').references('coupons.id').onDelete('RESTRICT');
    t.uuid('merchant_charge_id').unique().references('merchant_charges.id').onDelete('RESTRICT');
    t.uuid('merchant_session_id').references('merchant_sessions.id').onDelete('RESTRICT');
    t.uuid('upgraded_from_id').unique().references('purchases.id').onDelete('RESTRICT'); // a purchase upgrades once
    timestamps(knex, t);
    t.check(`status IN (${inList(PURCHASE_STATUSES)})`, [], 'purchases_status_known');
    t.check(`total_amount >= 0`, [], 'purchases_total_amount_range');
    t.check(`country IS NULL OR country ~ '^[A-Z]{2}$'`, [], 'purchases_country_shape');
    t.check(`currency ~ '^[a-z]{3}$'`, [], 'purchases_currency_shape');
    t.check(`bulk_coupon_id IS NULL OR redeemed_bulk_coupon_id IS NULL`, [], 'purchases_bulk_or_redeemed');
    // The console's list: newest first, optionally within a product or a status.
    t.index(['created_at']);
    t.index(['product_id', 'created_at']);
    t.index(['status', 'created_at']);
    t.index('user_id');
    t.index('coupon_id');
    t.index('bulk_coupon_id');
    t.index('redeemed_bulk_coupon_id');
    t.index('merchant_session_id');
  });
  // One seat per person and team coupon.
  await knex.raw(
    'CREATE UNIQUE INDEX purchases_one_seat_per_user ON purchases (user_id, redeemed_bulk_coupon_id) WHERE redeemed_bulk_coupon_id IS NOT NULL',
  );

  await knex.schema.alterTable('coupons', (t) => {
    t.foreign('bulk_purchase_id').references('purchases.id').onDelete('CASCADE');
    t.index('bulk_purchase_id');
  });

  await knex.schema.createTable('purchase_user_transfers', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('transfer_state').notNullable().defaultTo('AVAILABLE');
    t.uuid('purchase_id').notNullable().references('purchases.id').onDelete('CASCADE');
    t.uuid('source_user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('target_user_id').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('canceled_at', { useTz: true });
    t.timestamp('confirmed_at', { useTz: true });
    t.timestamp('completed_at', { useTz: true });
    t.check(`transfer_state IN (${inList(TRANSFER_STATES)})`, [], 'purchase_user_transfers_state_known');
    t.check(`target_user_id IS NULL OR target_user_id <> source_user_id`, [], 'purchase_user_transfers_distinct_users');
    t.index('purchase_id');
    t.index('source_user_id');
    t.index('target_user_id');
  });
  // At most one open transfer per purchase; the expiry sweep reads open rows by expires_at.
  await knex.raw(
    `CREATE UNIQUE INDEX purchase_user_transfers_one_open ON purchase_user_transfers (purchase_id) WHERE transfer_state IN (${inList(OPEN_TRANSFER_STATES)})`,
  );
  await knex.raw(
    `CREATE INDEX purchase_user_transfers_open_expiry ON purchase_user_transfers (expires_at) WHERE transfer_state IN (${inList(OPEN_TRANSFER_STATES)})`,
  );

  await knex.schema.createTable('product_revenue_splits', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('type').notNullable();
    t.uuid('product_id').notNullable().references('products.id').onDelete('CASCADE');
    t.decimal('percent', 5, 4).notNullable();
    t.uuid('user_id').references('users.id').onDelete('RESTRICT');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check(`type IN (${inList(SPLIT_TYPES)})`, [], 'product_revenue_splits_type_known');
    t.check(`percent >= 0 AND percent <= 1`, [], 'product_revenue_splits_percent_range');
    t.check(`(type = 'platform') = (user_id IS NULL)`, [], 'product_revenue_splits_user_matches_type');
    t.index('product_id');
    t.index('user_id');
  });

  for (const table of ['coupons', 'purchases']) await addUpdatedAtTrigger(knex, table);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('product_revenue_splits');
  await knex.schema.dropTable('purchase_user_transfers');
  await knex.schema.alterTable('coupons', (t) => t.dropForeign('bulk_purchase_id'));
  await knex.schema.dropTable('purchases');
  await knex.schema.dropTable('coupons');
}
