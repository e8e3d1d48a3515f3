import { AppError } from '../../shared/errors';
import type { SubscriptionDeps } from './deps';
import { billingUrl } from './dunning';

/**
 * The provider's page where the learner replaces the card their subscription is billed to, coming back to the
 * Billing page (docs/domain.md §22). A subscription that ended has no card to update.
 */
export async function paymentMethodUrl(
  { db, config, provider }: SubscriptionDeps,
  userId: string,
  id: string,
): Promise<{ url: string }> {
  const sub = (await db('subscriptions').where({ id, userId }).first('providerIdentifier', 'status')) as
    { providerIdentifier: string; status: string } | undefined;
  if (!sub) throw new AppError('not-found', 'No such subscription.');
  if (sub.status === 'canceled') throw new AppError('subscription-not-renewable', 'This subscription has ended.');
  const billing = provider.subscriptions;
  if (!billing?.paymentMethodUrl)
    throw new AppError(
      'card-update-not-available',
      'Cards cannot be updated on this site yet. Contact our support team.',
    );
  return { url: await billing.paymentMethodUrl(sub.providerIdentifier, billingUrl(config.publicUrl)) };
}
