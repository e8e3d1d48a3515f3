import type { Knex } from 'knex';
import {
  DAILY_LEDGER_TABLES,
  dailyLedgerAdds,
  deltaRollup,
  FAIL_FAST_ON_LOCKS,
  splitLineRollup,
  UTC_DAY,
} from './rollup-sql';

/**
 * The dashboard's and the Finance page's figures per UTC day, kept by the ledger's own writes: statement-level
 * triggers on merchant_charges, purchases and split_lines add each statement's rows once (subtracting the old rows
 * of an update or delete), so a year's figures are a few hundred rows however large the ledger grows.
 *
 * Rows are spread over a few shard rows per key (by the writing connection), summed on read: fulfilments committing at
 * once each lock their own shard's row for "today" rather than queueing on one.
 *
 * Counts of distinct things stay additive by counting one line of each: a sale is counted on its charge's first sale
 * line (lowest id), a refund on its first line of the day (per charge and reference), so the counts equal the
 * ledger's count(DISTINCT …) for any whole days.
 */

const DAY = UTC_DAY('created_at');

/** split_lines is append-only: inserts add; a correction counts the days it touches again from the ledger. */
const ledgerRollup = splitLineRollup({
  fn: 'finance_daily_ledger_add',
  tables: DAILY_LEDGER_TABLES,
  column: 'day',
  period: UTC_DAY,
  add: (from) => dailyLedgerAdds(from),
});

const charges = deltaRollup(
  'merchant_charges',
  'finance_daily_charges',
  { day: DAY, currency: 'currency' },
  { charges: '1', gross: 'amount', tax: 'tax_amount', fees: 'fee' },
);

const purchases = deltaRollup(
  'purchases',
  'finance_daily_purchases',
  { day: DAY, currency: 'currency', product_id: 'product_id' },
  // A sale is a purchase someone paid for (not a team's seat, not a free one); a comp is a course given.
  { paid: '(total_amount > 0 AND redeemed_bulk_coupon_id IS NULL)::int', comps: `(kind = 'comp')::int` },
);

export async function up(knex: Knex): Promise<void> {
  await knex.raw(FAIL_FAST_ON_LOCKS);
  const shard = (t: Knex.CreateTableBuilder) => t.smallint('shard').notNullable();
  const amounts = (t: Knex.CreateTableBuilder) => {
    t.integer('lines').notNullable();
    for (const c of ['sales', 'refunds', 'disputes', 'total']) t.bigInteger(c).notNullable();
  };
  await knex.schema.createTable('finance_daily_charges', (t) => {
    t.date('day').notNullable();
    t.text('currency').notNullable();
    shard(t);
    t.integer('charges').notNullable();
    for (const c of ['gross', 'tax', 'fees']) t.bigInteger(c).notNullable();
    t.primary(['day', 'currency', 'shard']);
  });
  await knex.schema.createTable('finance_daily_purchases', (t) => {
    t.date('day').notNullable();
    t.text('currency').notNullable();
    t.uuid('product_id').notNullable();
    shard(t);
    t.integer('paid').notNullable();
    t.integer('comps').notNullable();
    t.primary(['day', 'currency', 'product_id', 'shard']);
  });
  await knex.schema.createTable('finance_daily_ledger', (t) => {
    t.date('day').notNullable();
    t.text('currency').notNullable();
    shard(t);
    amounts(t);
    t.integer('sold_charges').notNullable();
    t.integer('refunds_made').notNullable();
    t.primary(['day', 'currency', 'shard']);
  });
  await knex.schema.createTable('finance_daily_ledger_products', (t) => {
    t.date('day').notNullable();
    t.text('currency').notNullable();
    t.uuid('product_id').notNullable();
    shard(t);
    amounts(t);
    t.primary(['day', 'currency', 'product_id', 'shard']);
  });
  await knex.schema.createTable('finance_daily_ledger_recipients', (t) => {
    t.date('day').notNullable();
    t.text('currency').notNullable();
    t.text('recipient_type').notNullable();
    t.uuid('user_id'); // null: the platform
    shard(t);
    amounts(t);
  });
  await knex.raw(`ALTER TABLE finance_daily_ledger_recipients ADD CONSTRAINT finance_daily_ledger_recipients_key
    UNIQUE NULLS NOT DISTINCT (day, currency, recipient_type, user_id, shard)`);
  // Each creates its triggers and fills its table from the rows already there, in this one transaction.
  await knex.raw(charges.up);
  await knex.raw(purchases.up);
  await knex.raw(ledgerRollup);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(charges.down);
  await knex.raw(purchases.down);
  await knex.raw('DROP FUNCTION finance_daily_ledger_add() CASCADE');
  for (const t of [...DAILY_LEDGER_TABLES, 'finance_daily_purchases', 'finance_daily_charges'])
    await knex.schema.dropTable(t);
}
