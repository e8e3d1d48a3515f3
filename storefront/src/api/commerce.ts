import { getJson, postJson } from './client';

export type DiscountKind = 'ppp' | 'team' | 'coupon' | 'default-coupon';

export type NotAppliedReason =
  | 'saves-less'
  | 'not-requested'
  | 'team-purchase'
  | 'quantity-above-one'
  | 'entered-coupon-wins'
  | 'no-tier-yet'
  | 'minimum-charge';

export type CouponProblem =
  | 'coupon-not-found'
  | 'coupon-expired'
  | 'coupon-used-up'
  | 'coupon-not-valid-for-product'
  | 'coupon-inactive';

/** The price of one prospective purchase, in integer cents; bp = basis points (2500 = 25 %). */
export interface Quote {
  unitAmount: number;
  quantity: number;
  fullPrice: number;
  credit: number;
  discount: { kind: DiscountKind; bp: number; amount: number; couponId?: string } | null;
  finalPrice: number;
  free: boolean;
  restricted: boolean;
  notApplied: { kind: DiscountKind; reason: NotAppliedReason }[];
}

/** GET /api/store/products/:id/quote */
export interface QuoteAnswer {
  product: { id: string; name: string };
  currency: string;
  country: string | null;
  detectedCountry: string;
  quote: Quote;
  ppp: { country: string; percent: number } | null;
  sale: { couponId: string; percent: number; expires: string | null } | null;
  coupon: { code: string; problem: CouponProblem | null; message: string | null } | null;
  upgrade: { fromPurchaseId: string; fromProductId: string; credit: number } | null;
  team: { seats: number; existingSeats: number } | null;
}

/** What the buyer chose in the pricing widget; the country is never chosen, the server detects it. */
export interface PurchaseChoice {
  quantity: number;
  team: boolean;
  coupon: string | null;
  ppp: boolean;
}

export function getQuote(productId: string, choice: PurchaseChoice, signal?: AbortSignal): Promise<QuoteAnswer> {
  const query = new URLSearchParams({ quantity: String(choice.quantity), team: String(choice.team), ppp: String(choice.ppp) });
  if (choice.coupon) query.set('coupon', choice.coupon);
  return getJson<QuoteAnswer>(`/api/store/products/${encodeURIComponent(productId)}/quote?${query}`, { signal });
}

export interface CheckoutRequest {
  productId: string;
  quantity: number;
  team: boolean;
  coupon?: string;
  ppp: boolean;
  upgradeFrom?: string;
  /** Required when signed out: where the receipt goes and whose account the purchase lands in. */
  email?: string;
}

/** POST /api/store/checkout → the provider's hosted checkout page. */
export function startCheckout(request: CheckoutRequest): Promise<{ url: string }> {
  return postJson<{ url: string }>('/api/store/checkout', request);
}
