import type * as Commerce from '@contract/commerce/schemas';
import type { Wire } from '@contract/shared/wire';
import { getJson, postJson } from './client';

export type { DiscountKind } from '@contract/commerce/pricing/prices';

/** GET /api/store/products/:id/quote: the price of one prospective purchase, with the team tiers. */
export type QuoteAnswer = Wire<Commerce.QuoteAnswer>;

/** What the buyer chose in the pricing widget; the country is never chosen, the server detects it. */
export type PurchaseChoice = Pick<Commerce.QuoteParams, 'quantity' | 'team' | 'ppp'> & { coupon: string | null };

export function getQuote(productId: string, choice: PurchaseChoice, signal?: AbortSignal): Promise<QuoteAnswer> {
  const query = new URLSearchParams({
    quantity: String(choice.quantity),
    team: String(choice.team),
    ppp: String(choice.ppp),
  });
  if (choice.coupon) query.set('coupon', choice.coupon);
  return getJson<QuoteAnswer>(`/api/store/products/${encodeURIComponent(productId)}/quote?${query}`, { signal });
}

export type CheckoutRequest = Commerce.CheckoutRequest;

/** POST /api/store/checkout → the provider's hosted checkout page. */
export function startCheckout(request: CheckoutRequest): Promise<Commerce.CheckoutStarted> {
  return postJson('/api/store/checkout', request);
}
