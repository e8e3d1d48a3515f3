import type { SubscriptionState } from '../../payments/provider';
import type { SubscriptionDeps } from './deps';
import { afterFailedRenewal } from './dunning';
import { countRedemption, termsOf } from './terms';
import { DAY_MS } from '../../shared/durations';

interface StateRow {
  id: string;
  status: string;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  graceUntil: Date | null;
  providerStateAt: Date | null;
}

/**
 * Records the provider's state of a subscription (docs/domain.md §22): its status, period and whether it ends at the
 * period's end. The first word of a subscription may be this one (it overtook the invoice's event): the subscription
 * is then recorded from it. Only forward: a state read before the one recorded, one of a period before the recorded
 * one (a renewal got there first; an end or lapse excepted), or any but canceled for a subscription that has ended changes nothing, and a
 * lapsed one stays lapsed while the provider still calls it past due. A subscription going past due starts its grace
 * now (and its dunning, when its failed invoice is recorded already); one past due already keeps its grace.
 */
export async function recordSubscriptionState(
  deps: SubscriptionDeps,
  accountId: string,
  state: SubscriptionState,
): Promise<{ recorded: boolean }> {
  const { db, clock, config } = deps;
  let dunning = false;
  const { metadata } = state;
  if (!metadata.userId || !metadata.productId || !metadata.priceId) return { recorded: false };
  const now = clock.now();
  const graceUntil = new Date(now.getTime() + config.SUBSCRIPTION_GRACE_DAYS * DAY_MS);
  const key = { merchantAccountId: accountId, providerIdentifier: state.identifier };
  const fields = {
    status: state.status,
    cancelAtPeriodEnd: state.cancelAtPeriodEnd,
    currentPeriodStart: state.currentPeriodStart,
    currentPeriodEnd: state.currentPeriodEnd,
    providerStateAt: state.observedAt,
  };
  const result = await db.transaction(async (trx) => {
    // Stripe's subscription event usually comes before its first invoice's: the subscription keeps its terms either way.
    const terms = termsOf(metadata);
    const [created] = await trx('subscriptions')
      .insert({
        ...key,
        ...fields,
        id: state.reference,
        userId: metadata.userId,
        productId: metadata.productId,
        priceId: metadata.priceId,
        graceUntil: state.status === 'past_due' ? graceUntil : null,
        ...terms,
      })
      .onConflict(['merchantAccountId', 'providerIdentifier'])
      .ignore()
      .returning('id');
    if (created) {
      await countRedemption(trx, terms);
      return { recorded: true };
    }
    const sub = (await trx('subscriptions')
      .where(key)
      .forUpdate()
      .first('id', 'status', 'currentPeriodStart', 'currentPeriodEnd', 'graceUntil', 'providerStateAt')) as StateRow;
    const older = sub.providerStateAt && state.observedAt.getTime() < new Date(sub.providerStateAt).getTime();
    // A period ending sooner is an earlier one, unless it starts later: the provider restarted the period (a switch
    // from yearly to monthly). An end or a lapse is the subscription's, whichever period it was read with.
    const earlierPeriod =
      state.status !== 'canceled' &&
      state.status !== 'lapsed' &&
      state.currentPeriodEnd.getTime() < new Date(sub.currentPeriodEnd).getTime() &&
      state.currentPeriodStart.getTime() <= new Date(sub.currentPeriodStart).getTime();
    const ended = sub.status === 'canceled' && state.status !== 'canceled';
    // Our grace ended while the provider still retries: only a payment (active) opens the courses again.
    const lapsedStill = sub.status === 'lapsed' && state.status === 'past_due';
    if (older || earlierPeriod || ended || lapsedStill) return { recorded: false };
    await trx('subscriptions')
      .where({ id: sub.id })
      .update({
        ...fields,
        graceUntil: state.status !== 'past_due' ? null : sub.status === 'past_due' ? sub.graceUntil : graceUntil,
        updatedAt: now,
      });
    // Stripe's new period may come before its failed invoice: that invoice, recorded while the subscription was still
    // in force, started no dunning. Going past due starts it now; a failure not recorded yet starts it when it comes.
    if (state.status === 'past_due' && (sub.status === 'active' || sub.status === 'trialing')) {
      const failed = await trx('subscriptionPeriods')
        .where({ subscriptionId: sub.id, outcome: 'failed' })
        .where('periodStart', '>=', state.currentPeriodStart)
        .first('id');
      if (failed) {
        await afterFailedRenewal(trx, deps, sub.id);
        dunning = true;
      }
    }
    return { recorded: true };
  });
  if (dunning) deps.outbox.flushInBackground();
  return result;
}
