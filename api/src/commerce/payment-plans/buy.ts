import { randomUUID } from 'node:crypto';
import { AppError } from '../../shared/errors';
import { GRANTING_STATUSES } from '../../shared/purchase-status';
import type { PaymentPlanDeps } from './deps';
import { holdsLiveSubscription } from '../subscriptions/rows';
import { pricePlan } from './plan-price';
import type { SubscribeTerms } from '../subscriptions/subscribe';
import { termsMetadata } from '../subscriptions/terms';

/**
 * What the buyer asks of a plan: a coupon, the regional price, and where they are billed (the detected country and
 * region unless billing details are given; tax follows it).
 */
export type PaymentPlanTerms = Pick<SubscribeTerms, 'billing' | 'country' | 'region' | 'couponCode' | 'ppp'>;

/**
 * Sends a signed-in learner to the provider's page to buy a course in instalments (docs/domain.md §23): a
 * subscription billed monthly that ends by itself once the plan's instalments are paid. Nothing is ours until the
 * provider says the first one is paid (recordSubscriptionEvent, then recordInstalment). The instalments are priced as
 * the course is (a coupon for its duration, or the regional price) and taxed as a membership's periods are: the plan
 * keeps the buyer's tax place, and the provider adds the tax on top of each where the school's prices exclude it.
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
  const price = (await db('prices').where({ productId, status: 'active' }).first('id')) as { id: string } | undefined;
  if (!price) throw new AppError('no-payment-plan', 'This course is not offered in instalments.');
  const owned = await db('purchases')
    .where({ userId, productId })
    .whereNull('bulkCouponId')
    .whereIn('status', GRANTING_STATUSES)
    .first('id');
  if (owned || (await holdsLiveSubscription(db, userId, productId, clock.now())))
    throw new AppError('already-purchased', 'You already own this course.');
  const user = (await db('users').where({ id: userId }).first('email')) as { email: string };
  const country = asked.country ?? config.DEFAULT_COUNTRY;
  const { plan, priced } = await pricePlan(db, productId, {
    ...asked,
    country,
    region: asked.region ?? null,
    buyer: { id: userId, email: user.email },
    now: clock.now(),
  });
  const { url } = await provider.subscriptions.createSubscription({
    reference: randomUUID(),
    description: `${product.name} (${plan.instalments} monthly payments)`,
    amount: priced.amount,
    currency: plan.currency,
    interval: 'month',
    discount: priced.discount && {
      bp: priced.discount.bp,
      periods: priced.discount.periods,
      label: priced.discount.label,
    },
    tax: priced.tax,
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
      ...termsMetadata(priced, 1, asked.billing),
      // At the regional price the purchase is Restricted to this country, as a one-time one is (docs/domain.md §5.2).
      ...(priced.pppPercent && { pppCountry: country }),
    },
  });
  return { url };
}
