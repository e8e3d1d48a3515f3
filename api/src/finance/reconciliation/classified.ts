import { BOOK_ENTRIES } from './book-entries';

/**
 * Every processor transaction of the account with its state and reason (docs/domain.md §20): `matched` to one book
 * entry to the cent, in the settlement currency (what the books hold the processor settled for it, when they do),
 * `difference` when matched but the amount, fee or currency differs (a fee the books do not know yet, as a dispute's
 * before its event told it, is `fee-not-booked`), `unmatched` when the books hold nothing for it. The reason of an
 * unmatched one says what was most likely missed, and whether it can be recovered through the code of the event that
 * was missed: a paid checkout the books know (its webhook missed), a refund or dispute of a charge the books hold
 * (made at the processor, or its event missed), unless the processor converted it (its amount in the charge's
 * currency is not told). Takes `:account`, and the processor's period `:from`, `:to` (its transactions, and those of
 * its payouts).
 */
export const CLASSIFIED = `
  SELECT t.id, t.identifier, t.kind, t.source_identifier, t.charge_identifier, t.amount, t.fee, t.currency,
         t.created_at, t.payout_identifier, t.book_kind, t.book_id, t.book_amount, t.book_fee, t.book_currency,
         CASE WHEN t.book_id IS NULL THEN 'unmatched'
              WHEN t.book_currency <> t.currency OR t.book_amount <> t.amount
                   OR t.book_fee IS DISTINCT FROM t.fee THEN 'difference'
              ELSE 'matched' END AS state,
         CASE WHEN t.book_id IS NOT NULL THEN
                CASE WHEN t.book_currency <> t.currency THEN 'other-currency'
                     WHEN t.book_amount <> t.amount THEN 'amount-changed'
                     WHEN t.book_fee IS NULL THEN 'fee-not-booked'
                     WHEN t.book_fee <> t.fee THEN 'fee-changed' END
              WHEN t.kind = 'charge' THEN CASE WHEN t.known_checkout THEN 'missed-webhook' ELSE 'unknown-charge' END
              WHEN t.kind = 'refund' THEN CASE WHEN t.known_charge THEN 'refund-at-processor' ELSE 'unknown-charge' END
              WHEN t.kind = 'dispute' THEN CASE WHEN t.known_charge THEN 'missed-dispute' ELSE 'unknown-charge' END
              WHEN t.kind = 'refund_failure' THEN 'missed-refund-failure'
              WHEN t.kind = 'dispute_reversal' THEN 'missed-dispute-close'
              WHEN t.kind = 'transfer' THEN 'unknown-transfer'
              WHEN t.kind = 'fee' THEN 'processor-fee'
              ELSE 'other' END AS reason,
         (t.book_id IS NULL AND ((t.kind = 'charge' AND t.known_checkout)
                                 OR (t.kind IN ('refund', 'dispute') AND t.known_charge_in_currency)))
           AS recoverable
    FROM (
      SELECT t.*, po.identifier AS payout_identifier, m.book_kind, m.book_id,
             -- The matched entry as the processor signs it (book-entries.ts), each read by its key: what the
             -- processor settled for it when the books hold that, else its own amount in the charge's currency.
             CASE m.book_kind WHEN 'charge' THEN coalesce(mc.settlement_amount, mc.amount)
                  WHEN 'refund' THEN -coalesce(mr.settlement_amount, mr.amount)
                  WHEN 'refund_failure' THEN coalesce(mr.settlement_amount, mr.amount)
                  WHEN 'dispute' THEN -coalesce(md.settlement_amount, md.amount)
                  WHEN 'dispute_reversal' THEN coalesce(md.reversal_settlement_amount, md.amount)
                  WHEN 'payout' THEN -mp.amount END AS book_amount,
             CASE m.book_kind WHEN 'charge' THEN coalesce(mc.settlement_fee, mc.fee) WHEN 'dispute' THEN md.fee
                  ELSE 0 END AS book_fee,
             CASE m.book_kind WHEN 'charge' THEN coalesce(mc.settlement_currency, mc.currency)
                  WHEN 'refund' THEN coalesce(mr.settlement_currency, rc.currency)
                  WHEN 'refund_failure' THEN coalesce(mr.settlement_currency, rc.currency)
                  WHEN 'dispute' THEN coalesce(md.settlement_currency, rc.currency)
                  WHEN 'dispute_reversal' THEN CASE WHEN md.reversal_settlement_amount IS NOT NULL
                                                    THEN md.settlement_currency ELSE rc.currency END
                  WHEN 'payout' THEN mp.currency END AS book_currency,
             (m.book_id IS NULL AND t.kind = 'charge' AND EXISTS (
                SELECT 1 FROM merchant_sessions s JOIN checkouts c ON c.merchant_session_id = s.id
                 WHERE s.merchant_account_id = t.merchant_account_id AND s.identifier = t.checkout_identifier))
               AS known_checkout,
             (m.book_id IS NULL AND t.kind IN ('refund', 'dispute') AND EXISTS (
                SELECT 1 FROM merchant_charges bc
                 WHERE bc.merchant_account_id = t.merchant_account_id AND bc.identifier = t.charge_identifier))
               AS known_charge,
             -- A refund or dispute the processor converted tells no amount in the charge's currency to record.
             (m.book_id IS NULL AND t.kind IN ('refund', 'dispute') AND EXISTS (
                SELECT 1 FROM merchant_charges bc
                 WHERE bc.merchant_account_id = t.merchant_account_id AND bc.identifier = t.charge_identifier
                   AND bc.currency = t.currency)) AS known_charge_in_currency
        FROM processor_balance_transactions t
        LEFT JOIN processor_payouts po ON po.id = t.processor_payout_id
        LEFT JOIN reconciliation_matches m ON m.balance_transaction_id = t.id
        LEFT JOIN merchant_charges mc ON m.book_kind = 'charge' AND mc.id = m.book_id
        LEFT JOIN merchant_refunds mr ON m.book_kind IN ('refund', 'refund_failure') AND mr.id = m.book_id
        LEFT JOIN merchant_disputes md ON m.book_kind IN ('dispute', 'dispute_reversal') AND md.id = m.book_id
        LEFT JOIN merchant_charges rc ON rc.id = coalesce(mr.merchant_charge_id, md.merchant_charge_id)
        LEFT JOIN payouts mp ON m.book_kind = 'payout' AND mp.id = m.book_id
       WHERE t.merchant_account_id = :account
         AND ((t.created_at >= :from AND t.created_at < :to) OR (po.created_at >= :from AND po.created_at < :to))
    ) t`;

/** Book entries of the period (their own time) that no processor transaction is matched to. */
export const UNMATCHED_IN_BOOKS = `
  WITH book AS (${BOOK_ENTRIES})
  SELECT b.kind, b.id, b.identifier, b.charge_identifier, b.amount, b.fee, b.currency, b.at
    FROM book b
   WHERE b.at >= :from AND b.at < :to
     AND NOT EXISTS (SELECT 1 FROM reconciliation_matches m WHERE m.book_kind = b.kind AND m.book_id = b.id)`;
