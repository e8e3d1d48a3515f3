import { randomUUID } from 'node:crypto';
import { AppError } from '../../shared/errors';
import type { BillingInterval } from '../../payments/provider';
import type { SubscriptionDeps } from './deps';
import { membershipPrice, type MembershipPriceRequest } from './period-price';
import { priceForInterval } from './interval-price';
import { holdsLiveSubscription } from './rows';
import type { SubscribeAnswer } from './subscriptions.schemas';
import { termsMetadata } from './terms';

/** What the subscriber asks for besides the membership: seats, a coupon, the regional price, where they are billed. */
export type SubscribeTerms = Partial<Pick<MembershipPriceRequest, 'quantity' | 'couponCode' | 'ppp' | 'billing'>> &
  Partial<Pick<MembershipPriceRequest, 'country' | 'region'>> & {
    /** Monthly or yearly, where the membership offers both (its default interval when not said). */
    interval?: BillingInterval;
  };

/**
 * Sends a signed-in learner to the provider's page to subscribe to an active membership at its current price
 * (docs/domain.md §22). Nothing is ours until the provider tells us they subscribed (recordSubscriptionEvent).
 */
export async function subscribe(
  { db, clock, config, provider }: SubscriptionDeps,
  userId: string,
  productId: string,
  asked: SubscribeTerms = {},
): Promise<SubscribeAnswer> {
  // A provider that cannot bill again takes no memberships: a clear refusal the product page shows, never a 500.
  if (!provider.subscriptions)
    throw new AppError(
      'memberships-not-available',
      'Memberships cannot be paid for on this site yet. Contact our support team to join.',
    );
  const product = (await db('products').where({ id: productId, status: 'active' }).first()) as
    | {
        id: string;
        name: string;
        slug: string | null;
        productType: string;
        billingInterval: BillingInterval | null;
        trialDays: number;
      }
    | undefined;
  if (!product) throw new AppError('product-not-found', 'No such product.');
  if (product.productType !== 'membership' || !product.billingInterval)
    throw new AppError('not-a-membership', 'This product is not a membership.');
  const interval = asked.interval ?? product.billingInterval;
  const price = await priceForInterval(db, productId, interval);
  if (await holdsLiveSubscription(db, userId, productId, clock.now()))
    throw new AppError('already-subscribed', 'You are already subscribed to this membership.');
  const user = (await db('users').where({ id: userId }).first('email')) as { email: string };
  const quantity = asked.quantity ?? 1;
  const priced = await membershipPrice(db, {
    ...asked,
    productId,
    unitAmount: price.unitAmount,
    currency: price.currency,
    quantity,
    ppp: asked.ppp ?? false,
    country: asked.country ?? config.DEFAULT_COUNTRY,
    region: asked.region ?? null,
    buyer: { id: userId, email: user.email },
    now: clock.now(),
  });
  const { url } = await provider.subscriptions.createSubscription({
    reference: randomUUID(),
    description: product.name,
    amount: priced.amount,
    quantity,
    discount: priced.discount && {
      bp: priced.discount.bp,
      periods: priced.discount.periods,
      label: priced.discount.label,
    },
    tax: priced.tax,
    currency: price.currency,
    interval,
    trialDays: product.trialDays,
    customerEmail: user.email,
    successUrl: new URL('/learning', config.publicUrl).toString(),
    cancelUrl: new URL(`/products/${product.slug ?? product.id}`, config.publicUrl).toString(),
    metadata: { userId, productId, priceId: price.id, ...termsMetadata(priced, quantity, asked.billing) },
  });
  return { url };
}
