import { recordAudit, SYSTEM_ACTOR } from '../../audit/record';
import { callStripe } from '../../payments/stripe-call';
import type { PayoutDeps } from './deps';

interface Unsent {
  id: string;
  recipientId: string;
  currency: string;
  amount: number;
  idempotencyKey: string;
  destination: string;
}

/**
 * Sends every Stripe payout not yet paid (new, or left pending or failed by an earlier run), one at a time and never
 * inside a transaction. Each carries its payout's idempotency key, so sending one again (a retry, a crash after
 * Stripe acted, two runs at once) gets back the same transfer instead of paying twice. A failure is kept on the
 * payout for the console and retried by the next run.
 */
export async function sendPayouts(
  deps: PayoutDeps,
  requestId: string | null,
): Promise<{ sent: number; failed: number }> {
  const { db, stripe, logger, clock } = deps;
  if (!stripe) return { sent: 0, failed: 0 };
  const unsent = (await db('payouts as p')
    .join('payoutRecipients as r', 'r.userId', 'p.recipientId')
    .where('p.method', 'stripe')
    .whereIn('p.status', ['pending', 'failed'])
    .orderBy('p.createdAt')
    .select(
      'p.id',
      'p.recipientId',
      'p.currency',
      'p.amount',
      'p.idempotencyKey',
      'r.stripeAccountId as destination',
    )) as Unsent[];
  let sent = 0;
  let failed = 0;
  for (const payout of unsent) {
    try {
      const transfer = await callStripe('send a payout', () =>
        stripe.transfers.create(
          {
            amount: payout.amount,
            currency: payout.currency,
            destination: payout.destination,
            metadata: { payoutId: payout.id, recipientId: payout.recipientId },
          },
          { idempotencyKey: payout.idempotencyKey },
        ),
      );
      await db.transaction(async (trx) => {
        const changed = await trx('payouts')
          .where({ id: payout.id })
          .whereNot('status', 'paid')
          .update({ status: 'paid', reference: transfer.id, paidAt: clock.now(), error: null });
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
          .update({ status: 'failed', error: message });
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
