import type { Knex } from 'knex';
import { taxOnTop } from '../tax/amounts';
import type { SubscriptionRequest } from './provider';

/** What the test provider keeps of a subscription's price: seats, the coupon and the periods it has left, tax on top. */
export interface PeriodPricing {
  amount: number;
  discountBp: number;
  /** Null: the coupon is taken off every period. */
  discountPeriodsLeft: number | null;
  taxOnTopBp: number;
}

/** A subscription request's price terms as the test provider's columns keep them. */
export function pricingColumnsOf(request: SubscriptionRequest) {
  const { discount, tax } = request;
  return {
    quantity: request.quantity ?? 1,
    discountBp: discount?.bp ?? 0,
    discountPeriodsLeft: discount ? discount.periods : 0,
    taxOnTopBp: tax && !tax.inclusive ? tax.rate : 0,
  };
}

/**
 * What one period is billed, as Stripe bills an invoice: the price less the coupon while it has periods left (its
 * percentage rounded half up to the minor unit), then any tax added on top of that.
 */
export function periodCharge(sub: PeriodPricing): { amount: number; discountAmount: number; taxAmount: number } {
  const discounted = sub.discountBp > 0 && (sub.discountPeriodsLeft === null || sub.discountPeriodsLeft > 0);
  const discountAmount = discounted ? Math.floor((sub.amount * sub.discountBp + 5_000) / 10_000) : 0;
  const base = sub.amount - discountAmount;
  const taxAmount = taxOnTop(base, sub.taxOnTopBp);
  return { amount: base + taxAmount, discountAmount, taxAmount };
}

/** A paid period uses up one of the coupon's periods (a coupon for every period has none to use up). */
export async function useDiscountPeriod(trx: Knex.Transaction, identifier: string): Promise<void> {
  await trx('testProviderSubscriptions')
    .where({ identifier })
    .where('discountPeriodsLeft', '>', 0)
    .decrement('discountPeriodsLeft', 1);
}
