import type { PaymentPlanQuote as PaymentPlanQuoteView } from '@contract/commerce/payment-plans/plan-price';
import type { Wire } from '@contract/shared/wire';
import { postJson } from './client';

/** What the buyer asks of a plan: the coupon typed in the buy box and the regional price, as for the one-time price. */
export interface PlanTerms {
  coupon: string | null;
  ppp: boolean;
}

/** Every instalment as it will be charged: its price, the coupon's part, its tax and the charge (the server's figures). */
export type PaymentPlanQuote = Wire<PaymentPlanQuoteView>;

const bodyOf = (productId: string, terms: PlanTerms) => ({
  productId,
  ppp: terms.ppp,
  ...(terms.coupon ? { coupon: terms.coupon } : {}),
});

/** POST /api/store/payment-plans/quote: the plan priced for this buyer, nothing started. */
export async function quotePaymentPlan(productId: string, terms: PlanTerms): Promise<PaymentPlanQuote> {
  const { data } = await postJson<{ data: PaymentPlanQuote }>(
    '/api/store/payment-plans/quote',
    bodyOf(productId, terms),
  );
  return data;
}

/** POST /api/store/payment-plans: where the learner buys a course in instalments (the provider's page). */
export async function buyPaymentPlan(productId: string, terms: PlanTerms): Promise<string> {
  const { data } = await postJson<{ data: { url: string } }>('/api/store/payment-plans', bodyOf(productId, terms));
  return data.url;
}
