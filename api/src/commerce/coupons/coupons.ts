import type { Knex } from 'knex';
import { Coupon } from '../models';
import { toBp, type CouponOffer } from '../pricing/prices';
import type { CouponProblem } from '../schemas';
import { prepared } from '../../db/prepared';

export type { CouponProblem };

export const COUPON_MESSAGES: Record<CouponProblem, string> = {
  'coupon-not-found': 'There is no coupon with that code.',
  'coupon-expired': 'This coupon has expired.',
  'coupon-used-up': 'This coupon has been used as many times as it allows.',
  'coupon-not-valid-for-product': 'This coupon is not valid for this course.',
  'coupon-inactive': 'This coupon is no longer active.',
  'coupon-not-valid': 'This code is not valid.',
};

/**
 * What a caller who is not signed in hears of any coupon problem: one answer for unknown, expired, inactive, used-up
 * and other-course codes, so that probing codes cannot tell which exist. Signed-in callers hear the reason.
 */
export function problemFor(problem: CouponProblem, precise: boolean): CouponProblem {
  return precise ? problem : 'coupon-not-valid';
}

/** Why a coupon cannot be used for this product now (docs/domain.md §4), or null when it can. */
export function couponProblem(coupon: Coupon | undefined, productId: string, now: Date): CouponProblem | null {
  if (!coupon) return 'coupon-not-found';
  if (coupon.status !== 'active') return 'coupon-inactive';
  if (coupon.expires && coupon.expires <= now) return 'coupon-expired';
  if (coupon.maxUses !== -1 && coupon.usedCount >= coupon.maxUses) return 'coupon-used-up';
  // Team coupons are redeemed through their invite link, never entered at checkout.
  if (coupon.bulkPurchaseId || (coupon.restrictedToProductId && coupon.restrictedToProductId !== productId))
    return 'coupon-not-valid-for-product';
  return null;
}

export function asOffer(coupon: Coupon): CouponOffer {
  return { id: coupon.id, code: coupon.code, bp: toBp(coupon.percentageDiscount), expires: coupon.expires };
}

// Plain knex below, not Objection builders: a quote runs these on every product page view, and building them is
// most of a quote's CPU. Rows become Coupon models at the end.
const asCoupon = (row: Record<string, unknown> | undefined): Coupon | undefined =>
  row ? Coupon.fromDatabaseJson(row) : undefined;

const byCode = (db: Knex, code: string) => db('coupons').whereRaw('lower(code) = lower(?)', [code]);

/**
 * The site-wide sale on these products: active default coupons, highest percentage first, that have not expired and
 * have uses left. A default coupon without an expiry runs until it is deactivated.
 */
export const defaultCoupons = (db: Knex, productIds: string[], now: Date) =>
  db('coupons')
    .where({ default: true, status: 'active' })
    .whereNull('bulkPurchaseId')
    .where((q) => q.whereNull('expires').orWhere('expires', '>', now))
    .where((q) => q.whereNull('restrictedToProductId').orWhereIn('restrictedToProductId', productIds))
    .where((q) => q.where('maxUses', -1).orWhere('usedCount', '<', db.raw('max_uses')))
    .orderBy([
      { column: 'percentageDiscount', order: 'desc' },
      { column: 'createdAt', order: 'asc' },
    ]);

/** The coupon entered (if any) and the best sale for a product, in one round trip: what every quote needs. */
export async function quoteCoupons(
  db: Knex,
  productId: string,
  code: string | undefined,
  now: Date,
): Promise<{ entered?: Coupon; sale?: Coupon }> {
  const tagged = (query: Knex.QueryBuilder, as: 'entered' | 'sale') =>
    query.select('coupons.*', db.raw('? AS found_as', [as])).limit(1);
  const sale = tagged(defaultCoupons(db, [productId], now), 'sale');
  // Prepared by name: parsed and planned once per connection, not on every product page view.
  const query = code
    ? db.unionAll([tagged(byCode(db, code), 'entered'), sale], true).options(prepared(db, 'quote-coupons-and-code'))
    : sale.options(prepared(db, 'quote-coupons'));
  const rows: Record<string, unknown>[] = await query;
  return {
    entered: asCoupon(rows.find((r) => r.foundAs === 'entered')),
    sale: asCoupon(rows.find((r) => r.foundAs === 'sale')),
  };
}
