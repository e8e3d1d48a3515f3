import { z } from 'zod';
import { ACTIVE_STATUSES } from '../../shared/active-status';
import { COUPON_DURATIONS } from '../../commerce/coupons/durations';
import { DateTime, Discount, Id } from './fields';

/** What the console may write on a coupon (usedCount moves only through redemptions). */
const couponFields = {
  code: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, - and _ only (at most 64)')
    .nullable()
    .optional(),
  percentageDiscount: Discount,
  expires: DateTime.nullable().optional(),
  maxUses: z.number().int().min(-1, '−1 (unlimited) or a number of uses').max(1_000_000),
  default: z.boolean(),
  status: z.enum(ACTIVE_STATUSES),
  restrictedToProductId: Id.nullable().optional(),
  /** On a membership: the first period only, `durationPeriods` periods, or every period (docs/domain.md §22). */
  duration: z.enum(COUPON_DURATIONS),
  durationPeriods: z.number().int('must be a whole number').min(1).max(120).nullable().optional(),
};

export const CouponCreate = z
  .object({
    ...couponFields,
    maxUses: couponFields.maxUses.default(-1),
    default: couponFields.default.default(false),
    status: couponFields.status.default('active'),
    duration: couponFields.duration.default('once'),
  })
  .strict();

export const CouponUpdate = z.object(couponFields).partial().strict();

/**
 * The console's coupon generator: N coupons with fresh codes, each with every field a created coupon has but its
 * code, status and the sale flag (generated codes are typed by buyers, and start active), one use each by default.
 */
export const GenerateCouponsBody = CouponCreate.omit({ code: true, status: true, default: true })
  .extend({
    count: z.number().int().min(1, 'at least 1').max(500, 'at most 500 at once'),
    prefix: z
      .string()
      .regex(/^[A-Z0-9]{0,12}$/, 'up to 12 capital letters or digits')
      .default(''),
    maxUses: couponFields.maxUses.default(1),
  })
  .strict();

// ─── Answers ───────────────────────────────────────────────────────────────────────────────────────────────────────
// What the console's commerce endpoints answer; the console reads them as `Wire<…>` (api/src/shared/wire.ts).

/** POST /api/admin/coupons/generate as the console sends it (before the schema's defaults). */
export type GenerateCouponsRequest = z.input<typeof GenerateCouponsBody>;

/** POST /api/admin/coupons/generate (in `data`): the coupons made, with their fresh codes. */
export interface GeneratedCoupon {
  id: string;
  code: string | null;
  /** A fraction: 0.25 = 25 %. */
  percentageDiscount: number;
  maxUses: number;
  expires: Date | null;
  restrictedToProductId: string | null;
}
