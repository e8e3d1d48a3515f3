import { recordAudit, type Actor } from '../../audit/record';
import { AppError } from '../../shared/errors';
import type { PayoutDeps } from './deps';
import { transferOfPayout } from './find-transfer';
import { CLAIM_HELD } from './send';
import type { Payout } from './models';

/**
 * A payout sent by hand (a bank transfer): its reference makes it paid. Marking it again with the same reference
 * answers the same payout; another reference is refused. A Stripe payout is a run's to send, unless it failed (or
 * Stripe is no longer configured, so no run will) and Stripe holds no transfer for it: then it may be paid by hand.
 */
export async function markPaid(
  deps: PayoutDeps,
  id: string,
  reference: string,
  actor: Actor,
  requestId: string | null,
): Promise<Payout> {
  // Stripe is asked before the transaction, so no lock is held while it answers.
  const viaStripe = (await deps.db('payouts').where({ id }).first('method'))?.method === 'stripe';
  const transfer = viaStripe && deps.stripe ? await transferOfPayout(deps.stripe, id) : null;
  return deps.db.transaction(async (trx) => {
    const payout = (await trx('payouts').where({ id }).forUpdate().first()) as Payout | undefined;
    if (!payout) throw new AppError('not-found', 'No such payout.');
    if (payout.status === 'paid') {
      if (payout.reference === reference) return payout;
      throw new AppError(
        'payout-already-paid',
        `This payout was already marked paid with the reference ${payout.reference}.`,
      );
    }
    if (transfer)
      throw new AppError(
        'payout-sent-by-stripe',
        `Stripe already made the transfer ${transfer.id} for this payout: the next payout run marks it paid.`,
      );
    if (payout.method === 'stripe' && (await trx('payouts').where({ id }).whereRaw(CLAIM_HELD).first('id')))
      throw new AppError(
        'payout-being-sent',
        'A payout run is sending this payout through Stripe right now: try again in a few minutes.',
      );
    if (payout.method !== 'manual' && deps.stripe && payout.status !== 'failed')
      throw new AppError(
        'payout-not-manual',
        'Stripe is sending this payout: it can be paid by hand only once it failed.',
      );
    const [paid] = (await trx('payouts')
      .where({ id })
      .update({ status: 'paid', reference, paidAt: deps.clock.now(), error: null })
      .returning('*')) as Payout[];
    await recordAudit(trx, {
      actor,
      action: 'payout.marked-paid',
      resource: 'payouts',
      recordId: id,
      before: { status: payout.status },
      after: { status: 'paid', reference, amount: payout.amount, currency: payout.currency },
      requestId,
    });
    return paid!;
  });
}
