import type { Knex } from 'knex';

/** The SQL of a limited coupon's uses held by open checkouts (reserve-coupon-use.ts holds the rules). */

export const couponMaxUses = async (trx: Knex.Transaction, couponId: string): Promise<number> =>
  (await trx('coupons').where({ id: couponId }).first('maxUses')).maxUses;

/**
 * Locks a coupon's row: checkout starts that reserve its uses go one at a time from here to their commit. No key
 * update: a fulfilment holding the product's lock writes a purchase naming the coupon (its foreign key takes a key
 * share of the row), while this start waits for the product to write its checkout; FOR UPDATE would deadlock them.
 */
export const lockCoupon = (trx: Knex.Transaction, couponId: string) =>
  trx('coupons').where({ id: couponId }).forNoKeyUpdate().first('id');

const openHolds = (trx: Knex.Transaction, couponId: string) =>
  trx('checkouts').where({ couponId, status: 'open', couponReserved: true });

/**
 * The use this buyer's open checkouts hold of a coupon moves to the checkout they are starting: those checkouts no
 * longer hold it (canceled or expired, they give nothing back; paid after all, they count a use as any unreserved
 * checkout does). True when there was one to move.
 */
export const moveBuyersHold = async (trx: Knex.Transaction, couponId: string, email: string): Promise<boolean> =>
  (
    await openHolds(trx, couponId)
      .whereRaw('lower(buyer_email) = lower(?)', [email])
      .update({ couponReserved: false })
      .returning('id')
  ).length > 0;

/** The uses of a coupon held by open checkouts from one client network: how many, and when the first ends. */
export async function networkHolds(
  trx: Knex.Transaction,
  couponId: string,
  network: string,
): Promise<{ count: number; firstEnds: Date | null }> {
  const row = await openHolds(trx, couponId)
    .where({ clientNetwork: network })
    .first(trx.raw('count(*)::int AS count'), trx.raw('min(expires_at) AS first_ends'));
  return { count: row.count, firstEnds: row.firstEnds };
}

/** Takes one use of a coupon if one is left, in one conditional update; false when none was. */
export const takeCouponUse = async (trx: Knex.Transaction, couponId: string): Promise<boolean> =>
  Boolean(
    await trx('coupons').where({ id: couponId }).where('usedCount', '<', trx.raw('max_uses')).increment('usedCount', 1),
  );

export const countCouponUse = (trx: Knex.Transaction, couponId: string) =>
  trx('coupons').where({ id: couponId }).increment('usedCount', 1);

export const giveCouponUseBack = (trx: Knex.Transaction, couponId: string | null) =>
  trx('coupons').where({ id: couponId }).where('usedCount', '>', 0).decrement('usedCount', 1);
