import { randomUUID } from 'node:crypto';
import { AppError } from '../../shared/errors';
import { GRANTING_STATUSES } from '../../shared/purchase-status';
import type { PaymentPlanDeps } from './deps';
import { holdsLiveSubscription } from '../subscriptions/rows';
import { activePlanOf } from '../../catalog/payment-plan-offer';
import { periodTaxTerms } from '../subscriptions/period-price';
import type { SubscribeTerms } from '../subscriptions/subscribe';
import { termsMetadata } from '../subscriptions/terms';

/** Where the buyer is billed: the detected country and region, unless billing details are given (tax follows it). */
export type PaymentPlanTerms = Pick<SubscribeTerms, 'billing' | 'country' | 'region'>;

/**
 * Sends a signed-in learner to the provider's page to buy a course in instalments (docs/domain.md §23): a
 * subscription billed monthly that ends by itself once the plan's instalments are paid. Nothing is ours until the
 * provider says the first one is paid (recordSubscriptionEvent, then recordInstalment). Each instalment is taxed as a
 * membership's period is: the plan keeps the buyer's tax place, and the provider adds the tax on top of each where the
 * school's prices exclude it.
 */
export async function buyPaymentPlan(
  { db, clock, config, provider }: PaymentPlanDeps,
  userId: string,
  productId: string,
  asked: PaymentPlanTerms = {},
): Promise<{ url: string }> {
  if (!provider.subscriptions)
    throw new AppError(
      'payment-plans-not-available',
      'Payment plans cannot be paid for on this site yet: buy the course in one payment instead.',
    );
  const product = (await db('products').where({ id: productId, status: 'active' }).first('id', 'name', 'slug')) as
    { id: string; name: string; slug: string | null } | undefined;
  if (!product) throw new AppError('product-not-found', 'No such product.');
  const [plan, price] = await Promise.all([
    activePlanOf(db, productId),
    db('prices').where({ productId, status: 'active' }).first('id') as Promise<{ id: string } | undefined>,
  ]);
  if (!plan || !price) throw new AppError('no-payment-plan', 'This course is not offered in instalments.');
  const owned = await db('purchases')
    .where({ userId, productId })
    .whereNull('bulkCouponId')
    .whereIn('status', GRANTING_STATUSES)
    .first('id');
  if (owned || (await holdsLiveSubscription(db, userId, productId, clock.now())))
    throw new AppError('already-purchased', 'You already own this course.');
  const user = (await db('users').where({ id: userId }).first('email')) as { email: string };
  const taxed = await periodTaxTerms(
    db,
    {
      currency: plan.currency,
      billing: asked.billing,
      country: asked.country ?? config.DEFAULT_COUNTRY,
      region: asked.region ?? null,
    },
    plan.instalmentAmount,
  );
  const { url } = await provider.subscriptions.createSubscription({
    reference: randomUUID(),
    description: `${product.name} (${plan.instalments} monthly payments)`,
    amount: plan.instalmentAmount,
    currency: plan.currency,
    interval: 'month',
    tax: taxed.tax,
    trialDays: 0,
    iterations: plan.instalments,
    customerEmail: user.email,
    successUrl: new URL('/learning', config.publicUrl).toString(),
    cancelUrl: new URL(`/products/${product.slug ?? product.id}`, config.publicUrl).toString(),
    metadata: {
      userId,
      productId,
      priceId: price.id,
      paymentPlanId: plan.id,
      ...termsMetadata({ amount: plan.instalmentAmount, discount: null, pppPercent: null, ...taxed }, 1),
    },
  });
  return { url };
}
