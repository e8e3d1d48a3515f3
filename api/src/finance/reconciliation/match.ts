import type { Knex } from 'knex';
import { BOOK_ENTRIES, BOOK_KIND_OF, bookBindings } from './book-entries';

/**
 * Matches every unmatched processor transaction of the account to its one book entry, in two set-based statements
 * (docs/domain.md §20). First by the processor's id of what moved the money. Then a refund made at the processor and
 * recorded from its `charge.refunded` event (which names the charge, not the refund) by its charge and amount, the
 * n-th of each side paired with the n-th of the other. A unique key on each side keeps anything from being matched
 * twice, whoever matches at the same time: a conflicting pair is simply left out.
 */
export async function matchTransactions(db: Knex | Knex.Transaction, account: string, label: string): Promise<number> {
  const bindings = bookBindings(account, label);
  const byIdentifier = await db.raw(
    `WITH book AS (${BOOK_ENTRIES})
     INSERT INTO reconciliation_matches (balance_transaction_id, book_kind, book_id)
     SELECT t.id, b.kind, b.id
       FROM processor_balance_transactions t
       JOIN book b ON b.identifier = t.source_identifier AND b.kind = ${BOOK_KIND_OF}
      WHERE t.merchant_account_id = :account
        AND NOT EXISTS (SELECT 1 FROM reconciliation_matches m WHERE m.balance_transaction_id = t.id)
     ON CONFLICT DO NOTHING`,
    bindings,
  );
  const byChargeAndAmount = await db.raw(
    `WITH book AS (${BOOK_ENTRIES}),
     open_txns AS (
       SELECT t.id, t.charge_identifier, t.amount,
              row_number() OVER (PARTITION BY t.charge_identifier, t.amount ORDER BY t.created_at, t.id) AS n
         FROM processor_balance_transactions t
        WHERE t.merchant_account_id = :account AND t.kind = 'refund'
          AND NOT EXISTS (SELECT 1 FROM reconciliation_matches m WHERE m.balance_transaction_id = t.id)),
     open_refunds AS (
       SELECT b.id, b.charge_identifier, b.amount,
              row_number() OVER (PARTITION BY b.charge_identifier, b.amount ORDER BY b.at, b.id) AS n
         FROM book b JOIN merchant_refunds r ON r.id = b.id
        WHERE b.kind = 'refund' AND r.reason_code = 'provider'
          AND NOT EXISTS (SELECT 1 FROM reconciliation_matches m WHERE m.book_kind = 'refund' AND m.book_id = b.id))
     INSERT INTO reconciliation_matches (balance_transaction_id, book_kind, book_id)
     SELECT t.id, 'refund', b.id FROM open_txns t JOIN open_refunds b USING (charge_identifier, amount, n)
     ON CONFLICT DO NOTHING`,
    bindings,
  );
  return (byIdentifier.rowCount ?? 0) + (byChargeAndAmount.rowCount ?? 0);
}
