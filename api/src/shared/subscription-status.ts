// A membership's subscription: its statuses and when it opens courses (docs/domain.md §22), written once for the
// access check, the storefront's list and the provider's events.

export const SUBSCRIPTION_STATUSES = ['trialing', 'active', 'past_due', 'canceled', 'lapsed'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/**
 * Whether subscription `s` opens its membership's courses at `:now` (SQL): trialing or active, until the period's end
 * when it is canceled at the period's end; past due until its grace ends.
 */
export const SUBSCRIPTION_OPENS = `(
  (s.status IN ('trialing', 'active') AND (NOT s.cancel_at_period_end OR s.current_period_end > :now))
  OR (s.status = 'past_due' AND s.grace_until > :now))`;

/**
 * The status a subscription `s` has at `?` (SQL, the instant bound twice): as stored, except that time has ended a
 * past-due one's grace (lapsed) or a canceled-at-period-end one's period (canceled) before a sweep records it.
 */
export const SUBSCRIPTION_STATUS_NOW = `CASE
  WHEN s.status = 'past_due' AND s.grace_until <= ? THEN 'lapsed'
  WHEN s.status IN ('trialing', 'active') AND s.cancel_at_period_end AND s.current_period_end <= ? THEN 'canceled'
  ELSE s.status END`;
