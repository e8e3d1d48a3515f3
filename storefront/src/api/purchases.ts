import { getJson } from './client';

export type CheckoutStatus = 'open' | 'fulfilled' | 'refunded' | 'canceled';

/** What the thank-you page learns about a checkout. */
export interface CheckoutState {
  status: CheckoutStatus;
  purchaseId: string | null;
  /**
   * A team purchase: the whole team's seats after it (`teamId` is the team's page, /teams/:teamId). It opens no
   * course by itself: the buyer takes a seat like anyone else.
   */
  team: { teamId: string; seats: number; ownerHasSeat: boolean } | null;
}

/** GET /api/store/checkouts/:id: asking also fulfils a paid checkout, so the thank-you page asks until it is settled. */
export function getCheckoutStatus(checkoutId: string, signal?: AbortSignal): Promise<CheckoutState> {
  return getJson(`/api/store/checkouts/${encodeURIComponent(checkoutId)}`, { signal });
}

export type PurchaseStatus = 'Valid' | 'Restricted' | 'Refunded' | 'Disputed' | 'Banned';

export interface MyPurchase {
  id: string;
  product: { id: string; name: string; slug: string | null };
  status: PurchaseStatus;
  /** Integer cents. */
  totalAmount: number;
  currency: string;
  createdAt: string;
  country: string | null;
  /**
   * A team purchase: its team's seats. `teamId` is the team's first purchase (its page is /teams/:teamId);
   * `addedSeats` marks a later purchase that added seats to that team.
   */
  team: {
    seats: number;
    used: number;
    teamId: string;
    addedSeats: boolean;
    /** The seats this purchase bought; not sent by the API yet (the row then says "Added seats"). */
    quantity?: number;
    /** The buyer holds one of the team's seats (the team purchase itself opens no course). */
    ownerHasSeat: boolean;
  } | null;
  /** A seat redeemed from someone's team purchase. */
  seat: boolean;
  invoiceId: string | null;
}

export async function listMyPurchases(): Promise<MyPurchase[]> {
  return (await getJson<{ data: MyPurchase[] }>('/api/store/purchases')).data;
}

/** Amounts in integer cents. */
export interface Invoice {
  id: string;
  number: string;
  issuedAt: string;
  buyer: { name: string | null; email: string };
  line: { description: string; quantity: number; unitAmount: number; subtotal: number };
  /** The percentage discount (sale, coupon, team tier, regional price); 0 when none. */
  discount: number;
  /** Upgrade credit (what was paid for an owned course), taken off after the discount; 0 when none. */
  credit: number;
  total: number;
  refunded: number;
  currency: string;
  country: string | null;
}

export function getInvoice(invoiceId: string): Promise<Invoice> {
  return getJson(`/api/store/invoices/${encodeURIComponent(invoiceId)}`);
}
