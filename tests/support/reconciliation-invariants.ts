import { expect } from 'vitest';
import type { Db } from '../../api/src/db/connection';

/**
 * Every processor balance transaction imported is matched exactly once, to one book entry that no other transaction
 * is matched to, with the same amount, fee and currency (docs/domain.md §20). Unmatched ones are listed by kind and source.
 */
export async function expectReconciled(db: Db): Promise<void> {
  const unmatched = await db('processorBalanceTransactions as t')
    .leftJoin('reconciliationMatches as m', 'm.balanceTransactionId', 't.id')
    .whereNull('m.balanceTransactionId')
    .select('t.kind', 't.sourceIdentifier', 't.amount');
  expect(unmatched, 'processor transactions the books hold nothing for').toEqual([]);
  const twice = await db('reconciliationMatches')
    .groupBy('bookKind', 'bookId')
    .havingRaw('count(*) > 1')
    .select('bookKind', 'bookId');
  expect(twice, 'book entries matched more than once').toEqual([]);
  const account = await db('processorBalanceTransactions').distinct('merchantAccountId');
  for (const { merchantAccountId } of account) {
    const result = await db.raw(
      `SELECT count(*) FILTER (WHERE state <> 'matched')::int AS off FROM (
         SELECT CASE WHEN b.amount = t.amount AND b.currency = t.currency
                     AND b.fee IS NOT DISTINCT FROM t.fee THEN 'matched' ELSE 'difference' END AS state
           FROM processor_balance_transactions t
           JOIN reconciliation_matches m ON m.balance_transaction_id = t.id
           JOIN (${BOOK}) b ON b.kind = m.book_kind AND b.id = m.book_id
          WHERE t.merchant_account_id = ?) s`,
      [merchantAccountId],
    );
    expect(result.rows[0].off, 'matched transactions whose amount, fee or currency differs').toBe(0);
  }
}

/** The books' amounts as the processor signs them, by entry (api/src/finance/reconciliation/book-entries.ts). */
const BOOK = `
  SELECT 'charge' AS kind, c.id, c.amount, c.fee, c.currency FROM merchant_charges c
  UNION ALL SELECT 'refund', r.id, -r.amount, 0, c.currency FROM merchant_refunds r JOIN merchant_charges c ON c.id = r.merchant_charge_id
  UNION ALL SELECT 'refund_failure', r.id, r.amount, 0, c.currency FROM merchant_refunds r JOIN merchant_charges c ON c.id = r.merchant_charge_id
  UNION ALL SELECT 'dispute', d.id, -d.amount, d.fee, c.currency FROM merchant_disputes d JOIN merchant_charges c ON c.id = d.merchant_charge_id
  UNION ALL SELECT 'dispute_reversal', d.id, d.amount, 0, c.currency FROM merchant_disputes d JOIN merchant_charges c ON c.id = d.merchant_charge_id
  UNION ALL SELECT 'payout', p.id, -p.amount, 0, p.currency FROM payouts p`;
