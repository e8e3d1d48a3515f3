import { AppError } from '../../shared/errors';
import type { SubscriptionDeps } from './deps';
import { subscriptionOf } from './rows';
import { dropWaitingSwitch } from './waiting-switch';
import type { SubscriptionView } from './subscriptions.schemas';

/**
 * Ends the learner's subscription at its period's end (cancel), or keeps it going again (resume) while that end has
 * not come (docs/domain.md §22). The provider is told first: what it bills decides.
 */
export async function setCancelAtPeriodEnd(
  deps: SubscriptionDeps,
  userId: string,
  id: string,
  cancel: boolean,
): Promise<SubscriptionView> {
  const { db, clock, provider } = deps;
  const now = clock.now();
  const before = await subscriptionOf(db, userId, id, now);
  if (!before) throw new AppError('not-found', 'No such subscription.');
  if (!['trialing', 'active', 'past_due'].includes(before.status))
    throw new AppError('subscription-not-renewable', 'This subscription has ended.');
  if (before.cancelAtPeriodEnd === cancel) return before;
  const row = (await db('subscriptions').where({ id }).first('providerIdentifier')) as { providerIdentifier: string };
  // A renewal owed and cancelled: the retries stop and the provider ends it now (its period is already over).
  if (before.status === 'past_due' && cancel) {
    const billing = provider.subscriptions;
    if (billing?.cancelNow) await billing.cancelNow(row.providerIdentifier);
    else await billing?.cancelAtPeriodEnd(row.providerIdentifier, true);
    await db('subscriptions').where({ id, userId, status: 'past_due' }).update({
      status: 'canceled',
      cancelAtPeriodEnd: true,
      nextRetryAt: null,
      graceUntil: null,
      updatedAt: now,
    });
    return subscriptionOf(db, userId, id, now);
  }
  // A period already over has no end left to cancel at or resume from: its renewal decides. Refused before the
  // provider is told, so the provider and the subscription never disagree.
  if (new Date(before.currentPeriodEnd) <= now)
    throw new AppError('subscription-not-renewable', 'This subscription’s period has ended: its renewal decides.');
  // A switch waiting for that end would never start: dropped, so resuming renews at the interval billed now.
  if (cancel) await dropWaitingSwitch(deps, id);
  await provider.subscriptions?.cancelAtPeriodEnd(row.providerIdentifier, cancel);
  // Conditional: a period that ended meanwhile is not resumed.
  await db('subscriptions')
    .where({ id, userId })
    .where('currentPeriodEnd', '>', now)
    .update({ cancelAtPeriodEnd: cancel, updatedAt: now });
  return subscriptionOf(db, userId, id, now);
}
