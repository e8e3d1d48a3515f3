import type { Db } from '../db/connection';
import { AppError } from '../shared/errors';
import { membershipPrice, type MembershipPriceRequest } from '../commerce/subscriptions/period-price';
import { planQuoteOf, pricePlan, type PaymentPlanQuote } from '../commerce/payment-plans/plan-price';
import { percentOf } from '../commerce/pricing/prices';

/** A membership's price for one billing interval, with what it comes to each month (a year's is a twelfth). */
export interface MembershipTerms {
  interval: 'month' | 'year';
  perPeriod: number;
  currency: string;
  monthly: number;
  /**
   * What subscribing at this interval would bill each period for the simulated buyer, as subscribing prices it: the
   * regional price taken off (`amount`), the coupon's price while it lasts (null periods: every one), the tax rate.
   */
  priced: {
    amount: number;
    pppPercent: number | null;
    coupon: { code: string; amount: number; percent: number; periods: number | null } | null;
    tax: { name: string; rate: number; inclusive: boolean } | null;
  };
}

/** Who the recurring prices are simulated for: their country, the regional price, a coupon, the customer. */
export interface RecurringTerms {
  country: string;
  ppp: boolean;
  coupon?: string;
  buyer: { id: string; email: string } | null;
  now: Date;
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
    /** Every instalment as buying the plan would charge the simulated buyer (coupon, regional price, tax). */
    quote: PaymentPlanQuote;
  } | null;
  /** Why the coupon asked for was refused (priced without it then), as subscribing or buying the plan refuses it. */
  couponProblem: string | null;
}

const isCouponRefusal = (error: unknown): error is AppError =>
  error instanceof AppError && error.code.startsWith('coupon-');

/**
 * Prices with the coupon asked for, as checkout would; a coupon refused is priced without and said why (the one-time
 * simulator shows a refused coupon the same way).
 */
async function withCoupon<T>(terms: RecurringTerms, price: (coupon: string | undefined) => Promise<T>) {
  try {
    return { priced: await price(terms.coupon), couponProblem: null };
  } catch (error) {
    if (!terms.coupon || !isCouponRefusal(error)) throw error;
    return { priced: await price(undefined), couponProblem: error.code as string };
  }
}

/**
 * How the product is paid over time: its membership prices, or its payment plan, beside its one-time price, each priced
 * for the simulated buyer exactly as subscribing or buying the plan prices it (docs/domain.md §22, §23).
 */
export async function recurringPricing(db: Db, productId: string, terms: RecurringTerms): Promise<RecurringPricing> {
  const product = await db('products').where({ id: productId }).first();
  if (!product) throw new AppError('not-found', 'No such product.');
  const prices = (await db('prices').where({ productId, status: 'active' }).orderBy('createdAt')) as {
    unitAmount: number;
    currency: string;
    billingInterval?: 'month' | 'year' | null;
  }[];
  const isMembership = product.productType === 'membership';
  const asked = (couponCode: string | undefined) =>
    ({ ...terms, couponCode, region: null, sayWhy: true }) satisfies Partial<MembershipPriceRequest>;
  if (isMembership) {
    let couponProblem: string | null = null;
    const periods: MembershipTerms[] = [];
    for (const p of prices) {
      const interval = (p.billingInterval ?? product.billingInterval ?? 'month') as 'month' | 'year';
      const monthly = interval === 'year' ? Math.round(p.unitAmount / 12) : p.unitAmount;
      const request = { productId, unitAmount: p.unitAmount, currency: p.currency, quantity: 1 };
      const found = await withCoupon(terms, (code) => membershipPrice(db, { ...request, ...asked(code) }));
      couponProblem ??= found.couponProblem;
      const { amount, discount, pppPercent, tax } = found.priced;
      periods.push({
        interval,
        perPeriod: p.unitAmount,
        currency: p.currency,
        monthly,
        priced: {
          amount,
          pppPercent,
          coupon: discount && {
            code: discount.label,
            amount: amount - percentOf(amount, discount.bp),
            percent: discount.bp / 100,
            periods: discount.periods,
          },
          tax: tax && { name: tax.name, rate: tax.rate, inclusive: tax.inclusive },
        },
      });
    }
    periods.sort((a, b) => (a.interval === b.interval ? 0 : a.interval === 'month' ? -1 : 1));
    return {
      productId,
      productType: product.productType,
      oneTime: null,
      membership: { trialDays: product.trialDays ?? 0, prices: periods },
      plan: null,
      couponProblem,
    };
  }
  const oneTime = prices[0] ? { amount: prices[0].unitAmount, currency: prices[0].currency } : null;
  const plan = await db('paymentPlans')
    .where({ productId, status: 'active' })
    .first('instalments', 'instalmentAmount', 'currency');
  const planned = plan && (await withCoupon(terms, (code) => pricePlan(db, productId, asked(code))));
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
          quote: planQuoteOf(productId, planned!.priced),
        }
      : null,
    couponProblem: planned?.couponProblem ?? null,
  };
}
