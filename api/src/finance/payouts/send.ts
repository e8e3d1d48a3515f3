import { recordAudit, SYSTEM_ACTOR } from '../../audit/record';
import { callStripe } from '../../payments/stripe-call';
import type { Db } from '../../db/connection';
import type { PayoutDeps } from './deps';
import { transferOfPayout } from './find-transfer';

interface Unsent {
  id: string;
  runId: string;
  recipientId: string;
  currency: string;
  amount: number;
  idempotencyKey: string;
  destination: string | null;
}

/**
 * Sends every Stripe payout not yet paid (new, or left pending or failed by an earlier run), one at a time and never
 * inside a transaction. Each carries its payout's idempotency key, so a retry or two runs at once get back the same
 * transfer. The key lasts only a day, so a payout an earlier run made (it may have been sent, the answer lost) is
 * first looked for by its transfer group, and a transfer found is adopted rather than sent again. A failure is kept
 * on the payout for the console and retried by the next run.
 */
export async function sendPayouts(
  deps: PayoutDeps,
  runId: string,
  requestId: string | null,
): Promise<{ sent: number; failed: number }> {
  const { db, stripe, logger, clock } = deps;
  if (!stripe) return { sent: 0, failed: 0 };
  const unsent = (await db('payouts as p')
    // A recipient whose connected account was removed still has their payout looked for and failed, not skipped.
    .leftJoin('payoutRecipients as r', 'r.userId', 'p.recipientId')
    .where('p.method', 'stripe')
    .whereIn('p.status', ['pending', 'failed'])
    .orderBy('p.createdAt')
    .select(
      'p.id',
      'p.runId',
      'p.recipientId',
      'p.currency',
      'p.amount',
      'p.idempotencyKey',
      'r.stripeAccountId as destination',
    )) as Unsent[];
  let sent = 0;
  let failed = 0;
  for (const payout of unsent) {
    if (!(await claim(db, payout.id))) continue; // another sender has it, or finance paid it meanwhile
    try {
      // This run's payouts were made moments ago: a second sender of one (two runs at once) still has a fresh key.
      const earlier = payout.runId !== runId ? await transferOfPayout(stripe, payout.id) : null;
      const destination = payout.destination;
      if (!earlier && !destination) throw new Error('The recipient has no connected Stripe account any more.');
      const transfer =
        earlier ??
        (await callStripe('send a payout', () =>
          stripe.transfers.create(
            {
              amount: payout.amount,
              currency: payout.currency,
              destination: destination!,
              transfer_group: payout.id,
              metadata: { payoutId: payout.id, recipientId: payout.recipientId },
            },
            { idempotencyKey: payout.idempotencyKey },
          ),
        ));
      await db.transaction(async (trx) => {
        const changed = await trx('payouts')
          .where({ id: payout.id })
          .whereNot('status', 'paid')
          .update({ status: 'paid', reference: transfer.id, paidAt: clock.now(), error: null, sendingSince: null });
        if (changed)
          await recordAudit(trx, {
            actor: SYSTEM_ACTOR,
            action: 'payout.paid',
            resource: 'payouts',
            recordId: payout.id,
            after: { status: 'paid', reference: transfer.id, amount: payout.amount, currency: payout.currency },
            requestId,
          });
      });
      sent++;
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause;
      const message = String(cause ?? (error instanceof Error ? error.message : error));
      logger.warn({ payoutId: payout.id, err: message }, 'payout transfer failed; the next run retries it');
      await db.transaction(async (trx) => {
        const changed = await trx('payouts')
          .where({ id: payout.id })
          .whereNot('status', 'paid')
          .update({ status: 'failed', error: message, sendingSince: null });
        if (changed)
          await recordAudit(trx, {
            actor: SYSTEM_ACTOR,
            action: 'payout.failed',
            resource: 'payouts',
            recordId: payout.id,
            after: { status: 'failed', error: message },
            requestId,
          });
      });
      failed++;
    }
  }
  return { sent, failed };
}

/**
 * How long a claim holds: longer than any sender lives (Stripe's calls give up within two minutes), so a claim this
 * old belongs to a sender that died, and its payout may be looked for and sent again.
 */
export const SENDING_CLAIM_MINUTES = 15;

/** A claim still held by a live sender, in SQL (for the payouts table's `sending_since`). */
export const CLAIM_HELD = `sending_since > now() - interval '${SENDING_CLAIM_MINUTES} minutes'`;

/**
 * Claims an unpaid payout for this sender before Stripe is asked for its transfer: while the claim holds, finance
 * cannot mark it paid by hand and no other run sends it, so one payout never becomes two transfers.
 */
async function claim(db: Db, id: string): Promise<boolean> {
  const claimed = await db('payouts')
    .where({ id })
    .whereIn('status', ['pending', 'failed'])
    .whereRaw(`NOT coalesce(${CLAIM_HELD}, false)`)
    .update({ sendingSince: db.fn.now() });
  return claimed === 1;
}
