import type { Db } from '../db/connection';
import { AppError } from '../shared/errors';

/** A membership's price for one billing interval, with what it comes to each month (a year's is a twelfth). */
export interface MembershipTerms {
  interval: 'month' | 'year';
  perPeriod: number;
  currency: string;
  monthly: number;
}

/**
 * GET /api/admin/pricing/recurring: how a product is paid over time, beside its one-time price. A membership bills
 * each interval after its free trial (docs/domain.md §22); a course with a payment plan is N instalments (§23).
 */
export interface RecurringPricing {
  productId: string;
  productType: string;
  /** The one-time price (null for a membership, never sold once). */
  oneTime: { amount: number; currency: string } | null;
  membership: { trialDays: number; prices: MembershipTerms[] } | null;
  plan: {
    instalments: number;
    instalmentAmount: number;
    total: number;
    currency: string;
    aboveOneTime: number | null;
  } | null;
}

/** How the product is paid over time: its membership prices, or its payment plan, beside its one-time price. */
export async function recurringPricing(db: Db, productId: string): Promise<RecurringPricing> {
  const product = await db('products').where({ id: productId }).first();
  if (!product) throw new AppError('not-found', 'No such product.');
  const prices = (await db('prices').where({ productId, status: 'active' }).orderBy('createdAt')) as {
    unitAmount: number;
    currency: string;
    billingInterval?: 'month' | 'year' | null;
  }[];
  const isMembership = product.productType === 'membership';
  if (isMembership) {
    const terms = prices.map((p) => {
      const interval = (p.billingInterval ?? product.billingInterval ?? 'month') as 'month' | 'year';
      const monthly = interval === 'year' ? Math.round(p.unitAmount / 12) : p.unitAmount;
      return { interval, perPeriod: p.unitAmount, currency: p.currency, monthly };
    });
    terms.sort((a, b) => (a.interval === b.interval ? 0 : a.interval === 'month' ? -1 : 1));
    return {
      productId,
      productType: product.productType,
      oneTime: null,
      membership: { trialDays: product.trialDays ?? 0, prices: terms },
      plan: null,
    };
  }
  const oneTime = prices[0] ? { amount: prices[0].unitAmount, currency: prices[0].currency } : null;
  const plan = await db('paymentPlans')
    .where({ productId, status: 'active' })
    .first('instalments', 'instalmentAmount', 'currency');
  return {
    productId,
    productType: product.productType,
    oneTime,
    membership: null,
    plan: plan
      ? {
          instalments: plan.instalments,
          instalmentAmount: plan.instalmentAmount,
          total: plan.instalments * plan.instalmentAmount,
          currency: plan.currency,
          aboveOneTime:
            oneTime && oneTime.currency === plan.currency
              ? plan.instalments * plan.instalmentAmount - oneTime.amount
              : null,
        }
      : null,
  };
}
