/**
 * Our books as the processor would see them, one row per movement of its balance (docs/domain.md §20): a charge (its
 * amount and fee), a refund given back (negative), a refund that failed (back in), a dispute's withdrawal (negative,
 * with its dispute fee: 0 here while no event told it) and a won dispute's reversal, and an author's payout sent by
 * Stripe transfer (negative). An inquiry withdraws nothing, so is no entry. `identifier` is the processor's id
 * of what moved the money. Takes the account's id (`:account`) and whether author payouts go through it (`:transfers`).
 */
export const BOOK_ENTRIES = `
  SELECT 'charge' AS kind, c.id, c.identifier, c.identifier AS charge_identifier, c.amount, c.fee, c.currency,
         c.created_at AS at
    FROM merchant_charges c WHERE c.merchant_account_id = :account AND c.amount > 0
  UNION ALL
  SELECT 'refund', r.id, r.identifier, c.identifier, -r.amount, 0, c.currency, r.created_at
    FROM merchant_refunds r JOIN merchant_charges c ON c.id = r.merchant_charge_id
   WHERE r.merchant_account_id = :account AND r.identifier IS NOT NULL
  UNION ALL
  SELECT 'refund_failure', r.id, r.identifier, c.identifier, r.amount, 0, c.currency, r.created_at
    FROM merchant_refunds r JOIN merchant_charges c ON c.id = r.merchant_charge_id
   WHERE r.merchant_account_id = :account AND r.identifier IS NOT NULL AND r.status = 'failed'
  UNION ALL
  SELECT 'dispute', d.id, d.identifier, c.identifier, -d.amount, coalesce(d.fee, 0), c.currency, d.created_at
    FROM merchant_disputes d JOIN merchant_charges c ON c.id = d.merchant_charge_id
   WHERE d.merchant_account_id = :account AND d.withdrawn
  UNION ALL
  SELECT 'dispute_reversal', d.id, d.identifier, c.identifier, d.amount, 0, c.currency, d.closed_at
    FROM merchant_disputes d JOIN merchant_charges c ON c.id = d.merchant_charge_id
   WHERE d.merchant_account_id = :account AND d.withdrawn AND d.status = 'won'
  UNION ALL
  SELECT 'payout', p.id, p.reference, NULL, -p.amount, 0, p.currency, p.paid_at
    FROM payouts p WHERE :transfers AND p.method = 'stripe' AND p.status = 'paid'`;

/** The book entry a processor transaction of `kind` is matched to (a transfer is an author's payout). */
export const BOOK_KIND_OF = `CASE t.kind WHEN 'transfer' THEN 'payout' ELSE t.kind END`;

/** The account and whether its transfers are authors' payouts, as the entries' bindings. */
export const bookBindings = (account: string, label: string) => ({ account, transfers: label === 'stripe' });
