import { z } from 'zod';
import { BillingDetails } from '../schemas';
import type { SubscriptionStatus } from '../../shared/subscription-status';
import type { InstalmentsView } from '../payment-plans/payment-plans.schemas';

/**
 * Subscribing to a membership: which one, for how many seats (a team's: the subscriber's own and those they give),
 * with a coupon or the regional price, and where the subscriber is billed (tax follows it, as at checkout).
 */
export const SubscribeBody = z.strictObject({
  productId: z.uuid('must be a product id'),
  quantity: z.number().int('must be a whole number').min(1, 'at least 1').max(100, 'at most 100').default(1),
  coupon: z.string().trim().min(1).max(64).optional(),
  ppp: z.boolean().default(false),
  billing: BillingDetails.optional(),
  /** Monthly or yearly, where the membership offers both; its default interval when absent. */
  interval: z.enum(['month', 'year']).optional(),
});

/**
 * Switching a membership to its monthly or yearly price, with what its confirmation said it charges now: a switch that
 * would charge otherwise is refused (`quote-changed`).
 */
export const SwitchBody = z.strictObject({
  interval: z.enum(['month', 'year']),
  dueNow: z.number().int('must be a whole number of cents').min(0, 'at least 0').optional(),
});

/** Seats added to a team membership, billed for the rest of the period at once. */
export const AddSeatsBody = z.strictObject({
  quantity: z.number().int('must be a whole number').min(1, 'at least 1').max(99, 'at most 99'),
});

/** Taking a seat of a team membership: the code its invite link carries. */
export const SeatCodeParam = z.strictObject({ code: z.string().trim().min(8).max(64) });

// ─── Answers ───────────────────────────────────────────────────────────────────────────────────────────────────────

/** A learner's subscription as the storefront lists it (`GET /api/store/subscriptions`). */
export interface SubscriptionView extends InstalmentsView {
  id: string;
  productId: string;
  /** The membership's name and its sales page's slug, as the learner's list shows them. */
  productName: string;
  productSlug: string | null;
  status: SubscriptionStatus;
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
}

/** Where the learner subscribes: the provider's hosted page. */
export interface SubscribeAnswer {
  url: string;
}

/** A membership's billing on the Billing page: its interval, the next charge, and a switch to its other interval. */
export interface BillingView {
  id: string;
  interval: 'month' | 'year' | null;
  /** The price of the next period, for every seat, and when it is charged; null once it no longer renews. */
  nextCharge: { amount: number; currency: string; on: Date } | null;
  /**
   * The other interval it can switch to now: its price each period, the unused part of this period credited, what the
   * coupon takes off and the tax (inside or on top) of what is charged now, what is charged now (exactly what the
   * provider charges), and whether the new interval starts now (else at this period's end). Null when there is none.
   */
  switch: {
    interval: 'month' | 'year';
    amount: number;
    currency: string;
    credit: number;
    discount: number;
    tax: { amount: number; inclusive: boolean } | null;
    dueNow: number;
    startsNow: boolean;
  } | null;
  /**
   * A switch waiting for this period's end (nothing was charged for it): the interval and price each period it
   * renews at from `on`. Switching back to `interval` undoes it. Null when none waits.
   */
  scheduledSwitch: { interval: 'month' | 'year'; amount: number; currency: string; on: Date } | null;
}
