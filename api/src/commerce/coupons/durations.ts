/**
 * How long a coupon lasts on a membership (docs/domain.md §22): its first period (`once`, every coupon's until
 * staff say otherwise, as a one-time purchase has one price), a number of periods (`repeating`), or `forever`.
 */
export const COUPON_DURATIONS = ['once', 'repeating', 'forever'] as const;
export type CouponDuration = (typeof COUPON_DURATIONS)[number];
