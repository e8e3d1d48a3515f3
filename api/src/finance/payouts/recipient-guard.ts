import type { Knex } from 'knex';
import { RUN_LOCK } from './run';

/**
 * Whether a Stripe payee (a `payout_recipients` row) has a Stripe payout not yet paid: without the connected account
 * no run could send it, so the account stays. Taken under the run lock, so no run makes a Stripe payout for the
 * recipient while a delete decides.
 */
export async function recipientHasUnpaidPayouts(trx: Knex.Transaction, recipientRowId: string): Promise<boolean> {
  await trx.raw(`SELECT pg_advisory_xact_lock(${RUN_LOCK})`);
  return Boolean(
    await trx('payouts as p')
      .join('payoutRecipients as r', 'r.userId', 'p.recipientId')
      .where({ 'r.id': recipientRowId, 'p.method': 'stripe' })
      .whereNot('p.status', 'paid')
      .first('p.id'),
  );
}
