import { BOOK_ENTRIES } from './book-entries';

/**
 * Every processor transaction of the account with its state and reason (docs/domain.md §20): `matched` to one book
 * entry to the cent, `difference` when matched but the amount, fee or currency differs, `unmatched` when the books
 * hold nothing for it. The reason of an unmatched one says what was most likely missed, and whether it can be
 * recovered through the code of the event that was missed: a paid checkout the books know (its webhook missed), a
 * refund or dispute of a charge the books hold (made at the processor, or its event missed). Takes `:account`,
 * `:transfers` (book-entries.ts) and the processor's period `:from`, `:to` (its transactions, and those of its payouts).
 */
export const CLASSIFIED = `
  WITH book AS (${BOOK_ENTRIES})
  SELECT t.id, t.identifier, t.kind, t.source_identifier, t.charge_identifier, t.amount, t.fee, t.currency,
         t.created_at, po.identifier AS payout_identifier, m.book_kind, m.book_id,
         b.amount AS book_amount, b.fee AS book_fee,
         CASE WHEN m.book_id IS NULL THEN 'unmatched'
              WHEN b.currency <> t.currency OR b.amount <> t.amount OR (t.kind = 'charge' AND b.fee <> t.fee)
              THEN 'difference'
              ELSE 'matched' END AS state,
         CASE WHEN m.book_id IS NOT NULL THEN
                CASE WHEN b.currency <> t.currency THEN 'other-currency'
                     WHEN b.amount <> t.amount THEN 'amount-changed'
                     WHEN t.kind = 'charge' AND b.fee <> t.fee THEN 'fee-changed' END
              WHEN t.kind = 'charge' THEN CASE WHEN co.id IS NOT NULL THEN 'missed-webhook' ELSE 'unknown-charge' END
              WHEN t.kind = 'refund' THEN CASE WHEN bc.id IS NOT NULL THEN 'refund-at-processor' ELSE 'unknown-charge' END
              WHEN t.kind = 'dispute' THEN CASE WHEN bc.id IS NOT NULL THEN 'missed-dispute' ELSE 'unknown-charge' END
              WHEN t.kind = 'refund_failure' THEN 'missed-refund-failure'
              WHEN t.kind = 'dispute_reversal' THEN 'missed-dispute-close'
              WHEN t.kind = 'transfer' THEN 'unknown-transfer'
              WHEN t.kind = 'fee' THEN 'processor-fee'
              ELSE 'other' END AS reason,
         (m.book_id IS NULL AND ((t.kind = 'charge' AND co.id IS NOT NULL)
                                 OR (t.kind IN ('refund', 'dispute') AND bc.id IS NOT NULL))) AS recoverable
    FROM processor_balance_transactions t
    LEFT JOIN processor_payouts po ON po.id = t.processor_payout_id
    LEFT JOIN reconciliation_matches m ON m.balance_transaction_id = t.id
    LEFT JOIN book b ON b.kind = m.book_kind AND b.id = m.book_id
    LEFT JOIN LATERAL (
      SELECT c.id FROM merchant_sessions s JOIN checkouts c ON c.merchant_session_id = s.id
       WHERE t.kind = 'charge' AND s.merchant_account_id = t.merchant_account_id
         AND s.identifier = t.checkout_identifier LIMIT 1) co ON true
    LEFT JOIN merchant_charges bc
      ON t.kind IN ('refund', 'dispute') AND bc.merchant_account_id = t.merchant_account_id
     AND bc.identifier = t.charge_identifier
   WHERE t.merchant_account_id = :account
     AND ((t.created_at >= :from AND t.created_at < :to) OR (po.created_at >= :from AND po.created_at < :to))`;

/** Book entries of the period (their own time) that no processor transaction is matched to. */
export const UNMATCHED_IN_BOOKS = `
  WITH book AS (${BOOK_ENTRIES})
  SELECT b.kind, b.id, b.identifier, b.charge_identifier, b.amount, b.fee, b.currency, b.at
    FROM book b
   WHERE b.at >= :from AND b.at < :to
     AND NOT EXISTS (SELECT 1 FROM reconciliation_matches m WHERE m.book_kind = b.kind AND m.book_id = b.id)`;
