import type * as Commerce from '@contract/commerce/schemas';
import type { Wire } from '@contract/shared/wire';
import { getJson, postJson } from './client';

export type { DiscountKind } from '@contract/commerce/pricing/prices';

/** GET /api/store/products/:id/quote: the price of one prospective purchase, with the team tiers. */
export type QuoteAnswer = Wire<Commerce.QuoteAnswer>;

/**
 * Where the buyer is billed, as far as tax asks (null: the detected country, the detected region, no ZIP or postal
 * code, no VAT ID).
 */
export interface BillingChoice {
  country: string | null;
  region: string | null;
  postalCode: string | null;
  vatId: string | null;
}

/**
 * What the buyer chose in the pricing widget. The regional price's country is never chosen (the server detects it);
 * the billing place, which the tax follows, may be.
 */
export type PurchaseChoice = Pick<Commerce.QuoteParams, 'quantity' | 'team' | 'ppp'> & {
  coupon: string | null;
  billing?: BillingChoice;
};

export function getQuote(productId: string, choice: PurchaseChoice, signal?: AbortSignal): Promise<QuoteAnswer> {
  const query = new URLSearchParams({
    quantity: String(choice.quantity),
    team: String(choice.team),
    ppp: String(choice.ppp),
  });
  if (choice.coupon) query.set('coupon', choice.coupon);
  if (choice.billing?.country) query.set('billingCountry', choice.billing.country);
  if (choice.billing?.region) query.set('region', choice.billing.region);
  if (choice.billing?.postalCode) query.set('postalCode', choice.billing.postalCode);
  if (choice.billing?.vatId) query.set('vatId', choice.billing.vatId);
  return getJson<QuoteAnswer>(`/api/store/products/${encodeURIComponent(productId)}/quote?${query}`, { signal });
}

export type CheckoutRequest = Commerce.CheckoutRequest;

/** POST /api/store/checkout → the provider's hosted checkout page. */
export function startCheckout(request: CheckoutRequest): Promise<Commerce.CheckoutStarted> {
  return postJson('/api/store/checkout', request);
}

export type BillingDetails = Commerce.BillingProfileAnswer;

/** GET /api/store/billing: the signed-in buyer's remembered billing details. */
export async function getBilling(): Promise<BillingDetails> {
  return (await getJson<{ data: BillingDetails }>('/api/store/billing')).data;
}
