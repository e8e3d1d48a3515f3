import type * as Commerce from '@contract/commerce/schemas';
import type { ListAnswer, Wire } from '@contract/shared/wire';
import { getJson } from './client';

/** What the thank-you page learns about a checkout. */
export type CheckoutState = Wire<Commerce.CheckoutOutcome>;

/** GET /api/store/checkouts/:id: asking also fulfils a paid checkout, so the thank-you page asks until it is settled. */
export function getCheckoutStatus(checkoutId: string, signal?: AbortSignal): Promise<CheckoutState> {
  return getJson(`/api/store/checkouts/${encodeURIComponent(checkoutId)}`, { signal });
}

export type MyPurchase = Wire<Commerce.MyPurchase>;

export async function listMyPurchases(): Promise<MyPurchase[]> {
  return (await getJson<ListAnswer<MyPurchase>>('/api/store/purchases')).data;
}
