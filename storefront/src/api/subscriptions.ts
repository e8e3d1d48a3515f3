import type * as Subscriptions from '@contract/commerce/subscriptions/subscriptions.schemas';
import type { SeatQuote as SeatQuoteView } from '@contract/commerce/subscriptions/seat-quote';
import type { SubscribeQuote as SubscribeQuoteView } from '@contract/commerce/subscriptions/subscribe-quote';
import type { SeatsView } from '@contract/commerce/subscriptions/seats';
import type { Wire } from '@contract/shared/wire';
import { getJson, postJson } from './client';

export type Subscription = Wire<Subscriptions.SubscriptionView>;

/** What subscribing asks for: monthly or yearly, seats for a team, a coupon code. */
export interface SubscribeChoice {
  interval?: 'month' | 'year';
  quantity?: number;
  coupon?: string;
}

/** POST /api/store/subscriptions: where the learner subscribes (the provider's page). */
export async function subscribe(productId: string, choice: SubscribeChoice = {}): Promise<string> {
  const { interval, quantity, coupon } = choice;
  const { data } = await postJson<{ data: Subscriptions.SubscribeAnswer }>('/api/store/subscriptions', {
    productId,
    ...(interval && { interval }),
    ...(quantity && quantity > 1 && { quantity }),
    ...(coupon && { coupon }),
  });
  return data.url;
}

export type SubscribeQuote = Wire<SubscribeQuoteView>;

/** POST /api/store/subscriptions/quote: the same choice priced, nothing started (a refused coupon refused alike). */
export async function quoteSubscribe(productId: string, choice: SubscribeChoice): Promise<SubscribeQuote> {
  const { interval, quantity, coupon } = choice;
  const { data } = await postJson<{ data: SubscribeQuote }>('/api/store/subscriptions/quote', {
    productId,
    ...(interval && { interval }),
    ...(quantity && quantity > 1 && { quantity }),
    ...(coupon && { coupon }),
  });
  return data;
}

/** GET /api/store/subscriptions: the signed-in learner's subscriptions, newest first. */
export async function listSubscriptions(): Promise<Subscription[]> {
  return (await getJson<{ data: Subscription[] }>('/api/store/subscriptions')).data;
}

/** Ends the subscription at its period's end (`cancel`), or keeps it going again. */
export async function setCancelAtPeriodEnd(id: string, cancel: boolean): Promise<Subscription> {
  const action = cancel ? 'cancel' : 'resume';
  return (await postJson<{ data: Subscription }>(`/api/store/subscriptions/${id}/${action}`)).data;
}

export type Billing = Wire<Subscriptions.BillingView>;

/** GET /api/store/subscriptions/:id/billing: the next charge, and what switching to the other interval costs now. */
export async function getBilling(id: string): Promise<Billing> {
  return (await getJson<{ data: Billing }>(`/api/store/subscriptions/${id}/billing`)).data;
}

/**
 * POST /api/store/subscriptions/:id/switch: monthly ↔ yearly, prorated, charging exactly the `dueNow` confirmed (409
 * `quote-changed` when it would charge otherwise); the billing after it.
 */
export async function switchInterval(id: string, interval: 'month' | 'year', dueNow: number): Promise<Billing> {
  return (await postJson<{ data: Billing }>(`/api/store/subscriptions/${id}/switch`, { interval, dueNow })).data;
}

/**
 * POST /api/store/subscriptions/:id/switch back to the interval billed now while a switch waits for the period's end:
 * that switch is undone, nothing charged (`dueNow` 0: once the switch is made, going back would charge, and is refused
 * with `quote-changed`); the billing after it.
 */
export async function undoSwitch(id: string, interval: 'month' | 'year'): Promise<Billing> {
  return (await postJson<{ data: Billing }>(`/api/store/subscriptions/${id}/switch`, { interval, dueNow: 0 })).data;
}

/** GET /api/store/subscriptions/:id/payment-method: the provider's page where the card is replaced. */
export async function paymentMethodUrl(id: string): Promise<string> {
  return (await getJson<{ data: { url: string } }>(`/api/store/subscriptions/${id}/payment-method`)).data.url;
}

export type Seats = Wire<SeatsView>;

/** GET /api/store/subscriptions/:id/seats: a team membership's seats, who holds them, the invite code. */
export async function getSeats(id: string): Promise<Seats> {
  return (await getJson<{ data: Seats }>(`/api/store/subscriptions/${id}/seats`)).data;
}

export type SeatQuote = Wire<SeatQuoteView>;

/** GET /api/store/subscriptions/:id/seats/quote: what adding seats charges now and each period after. */
export async function quoteSeats(id: string, quantity: number): Promise<SeatQuote> {
  return (await getJson<{ data: SeatQuote }>(`/api/store/subscriptions/${id}/seats/quote?quantity=${quantity}`)).data;
}

/** POST /api/store/subscriptions/:id/seats: seats added, the rest of the period billed now. */
export async function addSeats(id: string, quantity: number): Promise<Seats> {
  return (await postJson<{ data: Seats }>(`/api/store/subscriptions/${id}/seats`, { quantity })).data;
}

/** POST /api/store/subscription-seats/:code: takes a seat of a team membership through its invite link. */
export async function takeSeat(code: string): Promise<{ subscriptionId: string }> {
  return (
    await postJson<{ data: { subscriptionId: string } }>(`/api/store/subscription-seats/${encodeURIComponent(code)}`)
  ).data;
}

/** The invite link a team membership's subscriber shares. */
export const seatInvitePath = (code: string) => `/membership-seats/${encodeURIComponent(code)}`;
