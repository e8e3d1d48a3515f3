import { recordAudit, type Actor } from '../../audit/record';
import { AppError } from '../../shared/errors';
import type { PayoutDeps } from './deps';
import type { Payout } from './models';

/**
 * A manual payout sent by hand (a bank transfer): its reference makes it paid. Marking it again with the same
 * reference answers the same payout; another reference is refused, as is a Stripe payout (a run sends those).
 */
export async function markPaid(
  deps: PayoutDeps,
  id: string,
  reference: string,
  actor: Actor,
  requestId: string | null,
): Promise<Payout> {
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
    if (payout.method !== 'manual')
      throw new AppError('payout-not-manual', 'Stripe sends this payout: the next payout run retries it.');
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
