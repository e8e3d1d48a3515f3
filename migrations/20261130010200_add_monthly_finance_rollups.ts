import type { Knex } from 'knex';
import { deltaRollup, FAIL_FAST_ON_LOCKS, ledgerAmountsRollup, UTC_DAY, UTC_MONTH } from './rollup-sql';

/**
 * A year of the daily rollups per product is products × days rows (73,000 for 200 products): the figures by product
 * read whole months from monthly rollups instead, and only the days around them from the daily ones. Paid purchases
 * and comps are also kept per day without the product, for the charts by day. Kept like the daily rollups
 * (20261130010000): statement-level triggers, shard rows, exact on insert, update and delete.
 */

const PAID = { paid: '(total_amount > 0 AND redeemed_bulk_coupon_id IS NULL)::int', comps: `(kind = 'comp')::int` };

const dailyPurchases = deltaRollup(
  'purchases',
  'finance_daily_purchase_totals',
  { day: UTC_DAY('created_at'), currency: 'currency' },
  PAID,
);
const monthlyPurchases = deltaRollup(
  'purchases',
  'finance_monthly_purchases',
  { month: UTC_MONTH('created_at'), currency: 'currency', product_id: 'product_id' },
  PAID,
);

/** A correction (split_lines is append-only, so only one with its guard lifted) counts its months again. */
const monthlyLedger = ledgerAmountsRollup('finance_monthly_ledger_products', 'month', {
  currency: 'l.currency',
  product_id: 'l.product_id',
});

export async function up(knex: Knex): Promise<void> {
  await knex.raw(FAIL_FAST_ON_LOCKS);
  const counts = (t: Knex.CreateTableBuilder) => {
    t.smallint('shard').notNullable();
    t.integer('paid').notNullable();
    t.integer('comps').notNullable();
  };
  await knex.schema.createTable('finance_daily_purchase_totals', (t) => {
    t.date('day').notNullable();
    t.text('currency').notNullable();
    counts(t);
    t.primary(['day', 'currency', 'shard']);
  });
  await knex.schema.createTable('finance_monthly_purchases', (t) => {
    t.date('month').notNullable();
    t.text('currency').notNullable();
    t.uuid('product_id').notNullable();
    counts(t);
    t.primary(['month', 'currency', 'product_id', 'shard']);
  });
  await knex.schema.createTable('finance_monthly_ledger_products', (t) => {
    t.date('month').notNullable();
    t.text('currency').notNullable();
    t.uuid('product_id').notNullable();
    t.smallint('shard').notNullable();
    t.integer('lines').notNullable();
    for (const c of ['sales', 'refunds', 'disputes', 'total']) t.bigInteger(c).notNullable();
    t.primary(['month', 'currency', 'product_id', 'shard']);
  });
  await knex.raw(dailyPurchases.up);
  await knex.raw(monthlyPurchases.up);
  await knex.raw(monthlyLedger);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(dailyPurchases.down);
  await knex.raw(monthlyPurchases.down);
  await knex.raw('DROP FUNCTION finance_monthly_ledger_products_add() CASCADE');
  for (const t of ['finance_monthly_ledger_products', 'finance_monthly_purchases', 'finance_daily_purchase_totals'])
    await knex.schema.dropTable(t);
}
