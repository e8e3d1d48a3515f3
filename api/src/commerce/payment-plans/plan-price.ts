import type { Knex } from 'knex';
import { AppError } from '../../shared/errors';
import { activePlanOf, type PaymentPlanOffer } from '../../catalog/payment-plan-offer';
import { taxInside, taxOnTop } from '../../tax/amounts';
import { percentOf } from '../pricing/prices';
import { membershipPrice, type MembershipPrice, type MembershipPriceRequest } from '../subscriptions/period-price';

/** What the buyer asks of a plan besides the course: a coupon, the regional price, where they are billed. */
export type PlanAsk = Partial<Pick<MembershipPriceRequest, 'couponCode' | 'billing'>> &
  Pick<MembershipPriceRequest, 'country' | 'region' | 'buyer' | 'now' | 'sayWhy'> & { ppp?: boolean };

/** One instalment as the provider will bill it: its price, what the coupon takes off, the tax, and what is charged. */
export interface InstalmentFigures {
  /** The instalment before the coupon (a regional price already taken off), net of tax added on top. */
  amount: number;
  discount: number;
  /** The tax it carries: inside `charged` where the currency's prices include it, else added on top. */
  tax: number;
  /** What the card is charged. */
  charged: number;
}

/** A plan priced for one buyer (docs/domain.md §23): every instalment, in order, exactly as it will be charged. */
export interface PaymentPlanQuote {
  productId: string;
  instalments: number;
  currency: string;
  payments: InstalmentFigures[];
  /** Every instalment's charge added up. */
  total: number;
  /** The coupon applied, its percentage and how many instalments it takes off (null: every one). */
  coupon: { code: string; percent: number; periods: number | null } | null;
  pppPercent: number | null;
  tax: { name: string; rate: number; inclusive: boolean } | null;
}

/** A plan and its pricing for one buyer, as buying it bills it. */
export interface PricedPlan {
  plan: PaymentPlanOffer;
  priced: MembershipPrice;
}

/**
 * Prices a plan's instalments as a course is priced (docs/domain.md §23): each is a period priced as a membership's
 * (one percentage discount: a typed coupon, the sale, or the regional price), the coupon lasting as its duration says
 * (once: the first instalment; repeating: that many; forever: all), tax as at checkout.
 */
export async function pricePlan(conn: Knex, productId: string, ask: PlanAsk): Promise<PricedPlan> {
  const plan = await activePlanOf(conn, productId);
  if (!plan) throw new AppError('no-payment-plan', 'This course is not offered in instalments.');
  const priced = await membershipPrice(conn, {
    ...ask,
    productId,
    unitAmount: plan.instalmentAmount,
    currency: plan.currency,
    quantity: 1,
    ppp: ask.ppp ?? false,
  });
  return { plan, priced };
}

/**
 * Each instalment as the provider bills it (rounded as it rounds: the coupon's percentage half up, then the tax on
 * what is left), so the buy box, the simulator and the charges agree to the cent.
 */
export function instalmentFigures({ plan, priced }: PricedPlan): InstalmentFigures[] {
  const { amount, discount, tax } = priced;
  return Array.from({ length: plan.instalments }, (_, i) => {
    const off = discount && (discount.periods === null || i < discount.periods) ? percentOf(amount, discount.bp) : 0;
    const base = amount - off;
    const taxed = !tax ? 0 : tax.inclusive ? taxInside(base, tax.rate) : taxOnTop(base, tax.rate);
    return { amount, discount: off, tax: taxed, charged: tax?.inclusive ? base : base + taxed };
  });
}

/** The quote the sales page and the simulator show: every instalment, the coupon, the regional price and the tax. */
export function planQuoteOf(productId: string, priced: PricedPlan): PaymentPlanQuote {
  const payments = instalmentFigures(priced);
  const { discount, tax, pppPercent } = priced.priced;
  return {
    productId,
    instalments: priced.plan.instalments,
    currency: priced.plan.currency,
    payments,
    total: payments.reduce((sum, p) => sum + p.charged, 0),
    coupon: discount && {
      code: discount.label,
      percent: discount.bp / 100,
      periods: discount.periods === null ? null : Math.min(discount.periods, priced.plan.instalments),
    },
    pppPercent,
    tax: tax && { name: tax.name, rate: tax.rate, inclusive: tax.inclusive },
  };
}
