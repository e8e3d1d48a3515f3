import type { Knex } from 'knex';

/**
 * A charge is its payer's for ever, whoever holds the purchase later (docs/domain.md §8). Transfers and support's
 * moves used to hand the charge and its provider customer to the recipient; the payer is the first completed
 * transfer's source, so each such charge goes back to them, and a customer whose charges are then all one person's
 * goes back to that person. (The provider's own copy of the customer's email is not touched from here.)
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    UPDATE merchant_charges ch SET user_id = first_move.source_user_id
      FROM purchases p
      JOIN LATERAL (SELECT t.source_user_id FROM purchase_user_transfers t
                     WHERE t.purchase_id = p.id AND t.transfer_state = 'COMPLETED'
                     ORDER BY t.completed_at, t.id LIMIT 1) first_move ON true
     WHERE p.merchant_charge_id = ch.id AND ch.user_id IS DISTINCT FROM first_move.source_user_id`);
  await knex.raw(`
    UPDATE merchant_customers mc SET user_id = only_payer.user_id
      FROM (SELECT merchant_customer_id, min(user_id::text)::uuid AS user_id FROM merchant_charges
             WHERE merchant_customer_id IS NOT NULL GROUP BY merchant_customer_id
            HAVING count(DISTINCT user_id) = 1) only_payer
     WHERE only_payer.merchant_customer_id = mc.id AND mc.user_id IS DISTINCT FROM only_payer.user_id`);
}

/** Who paid is a fact: nothing to give back to the recipients. */
export async function down(): Promise<void> {}
