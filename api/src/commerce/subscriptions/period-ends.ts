import type { Knex } from 'knex';
import { recordAudit, SYSTEM_ACTOR } from '../../audit/record';
import type { Clock } from '../../clock';

/** Ends recorded by one sweep at most; the rest wait for the next minute. */
const ENDS_PER_SWEEP = 500;

/**
 * Records the end of every subscription set to end at its period's end whose period is over (docs/domain.md §22): its
 * status becomes `canceled` and the audit log says so, once across replicas. The statement that changes the status is
 * the claim (a row another replica ended meanwhile no longer matches), so two sweeps at once record each end once.
 * Access does not change: such a subscription stopped opening courses the moment its period ended, recorded or not.
 */
export async function recordPeriodEnds({ db, clock }: { db: Knex; clock: Clock }): Promise<number> {
  return db.transaction(async (trx) => {
    const now = clock.now();
    // Claimed under the rows' locks: a replica sweeping at once skips them, and finds them ended once it may look.
    const ended = (await trx('subscriptions')
      .whereIn('status', ['trialing', 'active'])
      .where({ cancelAtPeriodEnd: true })
      .where('currentPeriodEnd', '<=', now)
      .orderBy('currentPeriodEnd')
      .limit(ENDS_PER_SWEEP)
      .forUpdate()
      .skipLocked()
      .select('id', 'status', 'currentPeriodEnd', 'paymentPlanId')) as {
      id: string;
      status: string;
      currentPeriodEnd: Date;
      paymentPlanId: string | null;
    }[];
    if (!ended.length) return 0;
    await trx('subscriptions')
      .whereIn(
        'id',
        ended.map((row) => row.id),
      )
      .update({ status: 'canceled', updatedAt: now });
    for (const row of ended)
      await recordAudit(trx, {
        actor: SYSTEM_ACTOR,
        action: 'subscription.ended-at-period-end',
        resource: 'subscriptions',
        recordId: row.id,
        before: { status: row.status, cancelAtPeriodEnd: true },
        after: { status: 'canceled', endedAt: row.currentPeriodEnd, paymentPlan: row.paymentPlanId !== null },
      });
    return ended.length;
  });
}
