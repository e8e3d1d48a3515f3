import type { Knex } from 'knex';
import { addTo, EARNED_AMOUNT, FAIL_FAST_ON_LOCKS, TRANSACTION_SHARD, type Columns } from './rollup-sql';

/**
 * Payout balances read whole months from the monthly rollup by recipient (docs/domain.md §19). A balance splits a
 * recipient's lines by sign (earned: the positive lines; clawed back: the negative ones), which the rollup's columns
 * by kind cannot give (a won dispute's positive lines share `disputes` with a lost one's negative lines): the rollup
 * also keeps `earned`, the sum of the positive lines, and clawed back is `earned - total`. The function is the one
 * of 20261201040000 with that column added; the rows already there get their months' earned added in place.
 */

const LINE_MONTH = `date_trunc('month', l.created_at AT TIME ZONE 'UTC')::date`;
const MONTH = `date_trunc('month', created_at AT TIME ZONE 'UTC')::date`;
const KEYS: Columns = {
  month: LINE_MONTH,
  currency: 'l.currency',
  recipient_type: 'l.recipient_type',
  user_id: 'l.user_id',
};

const AMOUNTS: Columns = {
  lines: 'count(*)',
  sales: `coalesce(sum(l.amount) FILTER (WHERE l.kind = 'sale'), 0)`,
  refunds: `coalesce(sum(l.amount) FILTER (WHERE l.kind = 'refund'), 0)`,
  disputes: `coalesce(sum(l.amount) FILTER (WHERE l.kind IN ('dispute', 'dispute-won')), 0)`,
  total: 'sum(l.amount)',
};
const EARNED = EARNED_AMOUNT;

const rollupFunction = (amounts: Columns) => {
  const addLines = (from: string) =>
    addTo('finance_monthly_ledger_recipients', KEYS, amounts, from, undefined, TRANSACTION_SHARD);
  const recount = (touched: string) => `
    DELETE FROM finance_monthly_ledger_recipients WHERE month IN (${touched});
    ${addLines(`split_lines AS l WHERE ${LINE_MONTH} IN (${touched})`)}`;
  return `
    CREATE OR REPLACE FUNCTION finance_monthly_ledger_recipients_add() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN ${addLines('new_rows AS l')}
      ELSIF TG_OP = 'DELETE' THEN ${recount(`SELECT ${MONTH} FROM old_rows`)}
      ELSE ${recount(`SELECT ${MONTH} FROM old_rows UNION SELECT ${MONTH} FROM new_rows`)}
      END IF;
      RETURN NULL;
    END $$;`;
};

export async function up(knex: Knex): Promise<void> {
  await knex.raw(FAIL_FAST_ON_LOCKS);
  // Held to the backfill's commit: no line is written between the new function taking over and the sums below.
  await knex.raw('LOCK TABLE split_lines IN SHARE MODE');
  await knex.raw('ALTER TABLE finance_monthly_ledger_recipients ADD COLUMN earned bigint NOT NULL DEFAULT 0');
  await knex.raw(rollupFunction({ ...AMOUNTS, earned: EARNED }));
  // Only `earned` is added to the rows already there (the other measures by zero).
  const zero = Object.fromEntries(Object.keys(AMOUNTS).map((c) => [c, '0']));
  await knex.raw(
    addTo(
      'finance_monthly_ledger_recipients',
      KEYS,
      { ...zero, earned: EARNED },
      'split_lines AS l',
      undefined,
      TRANSACTION_SHARD,
    ),
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(rollupFunction(AMOUNTS));
  await knex.raw('ALTER TABLE finance_monthly_ledger_recipients DROP COLUMN earned');
}
