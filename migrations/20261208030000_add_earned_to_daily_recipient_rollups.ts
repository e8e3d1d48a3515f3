import type { Knex } from 'knex';
import {
  addTo,
  DAILY_LEDGER_TABLES,
  dailyLedgerAdds,
  EARNED_AMOUNT,
  FAIL_FAST_ON_LOCKS,
  LEDGER_AMOUNTS,
  splitLineRollupFunction,
  TRANSACTION_SHARD,
  UTC_DAY,
} from './rollup-sql';

/**
 * A payout balance holds back each recipient's positive lines of the holding period (docs/domain.md §19). Summed from
 * the ledger, that read grows with the school's sales per day; the daily rollup by recipient now also keeps `earned`
 * (the sum of the positive lines, as the monthly one does since 20261202060000), so a balance reads whole days from
 * it and only the lines of the day the holding period starts in. The function is 20261130010000's, writing
 * `earned` too (and its shard as 20261201010100 made it); the rows already there get their days' earned in place.
 */

const dailyLedgerFunction = (recipientMeasures: typeof LEDGER_AMOUNTS) =>
  splitLineRollupFunction(
    {
      fn: 'finance_daily_ledger_add',
      tables: DAILY_LEDGER_TABLES,
      column: 'day',
      period: UTC_DAY,
      add: (from) => dailyLedgerAdds(from, { shard: TRANSACTION_SHARD, recipientMeasures }),
    },
    'CREATE OR REPLACE',
  );

export async function up(knex: Knex): Promise<void> {
  await knex.raw(FAIL_FAST_ON_LOCKS);
  // Held to the backfill's commit: no line is written between the new function taking over and the sums below.
  await knex.raw('LOCK TABLE split_lines IN SHARE MODE');
  await knex.raw('ALTER TABLE finance_daily_ledger_recipients ADD COLUMN earned bigint NOT NULL DEFAULT 0');
  await knex.raw(dailyLedgerFunction({ ...LEDGER_AMOUNTS, earned: EARNED_AMOUNT }));
  // Only `earned` is added to the rows already there (the other measures by zero).
  const zero = Object.fromEntries(Object.keys(LEDGER_AMOUNTS).map((c) => [c, '0']));
  await knex.raw(
    addTo(
      'finance_daily_ledger_recipients',
      {
        day: UTC_DAY('l.created_at'),
        currency: 'l.currency',
        recipient_type: 'l.recipient_type',
        user_id: 'l.user_id',
      },
      { ...zero, earned: EARNED_AMOUNT },
      'split_lines AS l',
      undefined,
      TRANSACTION_SHARD,
    ),
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(dailyLedgerFunction(LEDGER_AMOUNTS));
  await knex.raw('ALTER TABLE finance_daily_ledger_recipients DROP COLUMN earned');
}
