import type { Knex } from 'knex';
import { issueCreditNote, issueInvoice } from '../api/src/invoices/issue';

/**
 * Every charge recorded before invoices were issued gets its invoice now, in the order the charges were made (numbered
 * in this year's sequence, dated today), and a charge refunded meanwhile its credit note for what was refunded. The
 * payer is who paid: the source of the purchase's first completed transfer when it was given away, since transfers
 * used to hand the charge to the recipient.
 */
export async function up(knex: Knex): Promise<void> {
  const { rows } = await knex.raw(`
    SELECT ch.id, ch.refund_amount, coalesce(first_move.source_user_id, ch.user_id) AS payer_user_id
      FROM merchant_charges ch
      LEFT JOIN LATERAL (SELECT t.source_user_id FROM purchases p
                           JOIN purchase_user_transfers t ON t.purchase_id = p.id AND t.transfer_state = 'COMPLETED'
                          WHERE p.merchant_charge_id = ch.id
                          ORDER BY t.completed_at, t.id LIMIT 1) first_move ON true
     WHERE NOT EXISTS (SELECT 1 FROM invoices i WHERE i.merchant_charge_id = ch.id)
     ORDER BY ch.created_at, ch.id`);
  const trx = knex as Knex.Transaction;
  for (const charge of rows as { id: string; refund_amount: number; payer_user_id: string }[]) {
    await issueInvoice(trx, charge.id, { payerUserId: charge.payer_user_id });
    if (charge.refund_amount > 0) await issueCreditNote(trx, charge.id, charge.refund_amount);
  }
}

/** Issued documents are never taken back (the table refuses it). */
export async function down(): Promise<void> {}
