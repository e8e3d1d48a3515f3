import type { Knex } from 'knex';
import type { ModelObject } from 'objection';
import { AppError } from '../../shared/errors';
import type { Coupon } from '../models';
import { toBp, type CouponOffer } from '../pricing/prices';
import { prepared } from '../../db/prepared';
import { COUPON_MESSAGES, couponProblem, problemFor, type CouponUse } from './rules';

/** A coupon's row, as knex answers it (camelCase columns). */
export type CouponRow = ModelObject<Coupon>;

export function asOffer(coupon: CouponRow): CouponOffer {
  return { id: coupon.id, code: coupon.code, bp: toBp(coupon.percentageDiscount), expires: coupon.expires };
}

// Plain knex below, not Objection builders: a quote runs these on every product page view, and building them is
// most of a quote's CPU.
const asCoupon = (row: Record<string, unknown> | undefined): CouponRow | undefined => {
  if (!row) return undefined;
  const { foundAs: _foundAs, ...coupon } = row;
  return coupon as CouponRow;
};

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
): Promise<{ entered?: CouponRow; sale?: CouponRow }> {
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

/**
 * Checkout start judges its quote's coupon again inside its transaction, after taking the buyer's lock (their email,
 * signed in or not): one buyer's checkout starts are judged one at a time, so a rule about the buyer's history cannot
 * be passed twice by two checkouts at once. Whether a use is left is the reservation's to decide, which follows.
 */
export async function refuseAtCheckout(
  trx: Knex.Transaction,
  couponId: string,
  use: Omit<CouponUse, 'db' | 'buyer'> & { buyer: NonNullable<CouponUse['buyer']> },
  precise: boolean,
): Promise<void> {
  await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`coupon-buyer:${use.buyer.email.toLowerCase()}`]);
  const coupon = (await trx('coupons').where({ id: couponId }).first()) as CouponRow | undefined;
  const found = await couponProblem(coupon, { ...use, db: trx }, { atCheckout: true });
  if (!found) return;
  const problem = problemFor(found, precise);
  throw new AppError(problem, COUPON_MESSAGES[problem], { coupon: COUPON_MESSAGES[problem] });
}
