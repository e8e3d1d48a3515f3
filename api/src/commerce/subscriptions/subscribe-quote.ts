import { AppError } from '../../shared/errors';
import type { BillingInterval } from '../../payments/provider';
import { percentOf } from '../pricing/prices';
import type { SubscriptionDeps } from './deps';
import { membershipPrice } from './period-price';
import { priceForInterval } from './interval-price';
import type { SubscribeTerms } from './subscribe';

/** What subscribing would charge each period, shown in the buy box before the provider's page (docs/domain.md §22). */
export interface SubscribeQuote {
  interval: BillingInterval;
  currency: string;
  /** Each period, every seat, before the coupon (a regional price already taken off). */
  amount: number;
  /** The coupon's price each period while it lasts, its percentage and its reach (null periods: every one). */
  coupon: { code: string; amount: number; percent: number; periods: number | null } | null;
}

/**
 * Prices a subscription exactly as subscribing will (its seats, coupon and regional price), so a refused coupon is
 * refused here with the same code and message, and nothing is started.
 */
export async function quoteSubscribe(
  { db, clock, config }: SubscriptionDeps,
  userId: string,
  productId: string,
  asked: SubscribeTerms = {},
): Promise<SubscribeQuote> {
  const product = (await db('products').where({ id: productId, status: 'active' }).first()) as
    { productType: string; billingInterval: BillingInterval | null } | undefined;
  if (!product) throw new AppError('product-not-found', 'No such product.');
  if (product.productType !== 'membership' || !product.billingInterval)
    throw new AppError('not-a-membership', 'This product is not a membership.');
  const interval = asked.interval ?? product.billingInterval;
  const price = await priceForInterval(db, productId, interval);
  const user = (await db('users').where({ id: userId }).first('email')) as { email: string };
  const priced = await membershipPrice(db, {
    ...asked,
    productId,
    unitAmount: price.unitAmount,
    currency: price.currency,
    quantity: asked.quantity ?? 1,
    ppp: asked.ppp ?? false,
    country: asked.country ?? config.DEFAULT_COUNTRY,
    region: asked.region ?? null,
    buyer: { id: userId, email: user.email },
    now: clock.now(),
  });
  const { discount } = priced;
  return {
    interval,
    currency: price.currency,
    amount: priced.amount,
    coupon:
      discount && asked.couponCode
        ? {
            code: discount.label,
            amount: priced.amount - percentOf(priced.amount, discount.bp),
            percent: discount.bp / 100,
            periods: discount.periods,
          }
        : null,
  };
}
