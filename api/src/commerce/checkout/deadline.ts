/**
 * How long a checkout may stay unpaid (Stripe's shortest session): then the expiry sweep ends it (at the provider too,
 * when the provider's sessions can be ended), and a coupon use it reserved comes back.
 */
export const CHECKOUT_MINUTES = 30;
export const CHECKOUT_MS = CHECKOUT_MINUTES * 60_000;

/** When a checkout started (or looked at again) at `now` is due. */
export const deadlineAfter = (now: Date) => new Date(now.getTime() + CHECKOUT_MS);
