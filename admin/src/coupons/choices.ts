import type { CouponRecord } from '@contract/commerce/schemas';
import type { Wire } from '@contract/shared/wire';
import type { ChipLook } from '../common/chipLooks';

/** A coupon as the console sees it (the `coupons` resource). */
export type Coupon = Wire<CouponRecord>;

export const usesLabel = (c: Pick<Coupon, 'usedCount' | 'maxUses'>) =>
  `${c.usedCount} / ${c.maxUses === -1 ? 'unlimited' : c.maxUses}`;

/** What a coupon is, in words: a site-wide sale, a team's seats or a code. */
export function couponName(c: Pick<Coupon, 'code' | 'default' | 'bulkPurchaseId' | 'id'>): string {
  if (c.code) return c.code;
  if (c.default) return 'Site-wide sale';
  if (c.bulkPurchaseId) return 'Team seats';
  return `Coupon ${c.id.slice(0, 8)}`;
}

/** Valid now? Mirrors the API's rule (§4) for display only: active, not expired, not used up. */
export function couponState(c: Coupon, now = Date.now()): ChipLook {
  if (c.status !== 'active') return { label: 'Inactive', color: 'default' };
  if (c.expires && Date.parse(c.expires) <= now) return { label: 'Expired', color: 'warning' };
  if (c.maxUses !== -1 && c.usedCount >= c.maxUses) return { label: 'Used up', color: 'warning' };
  return { label: 'Active', color: 'success' };
}
