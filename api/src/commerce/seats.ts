import type { Knex } from 'knex';

/**
 * Seats sold of a product: one per individual purchase, the seats of each team purchase (its coupon's uses);
 * redeemed seats are inside their team's count. Refunded, disputed and banned purchases give their seats back.
 */
export async function seatsSold(trx: Knex | Knex.Transaction, productId: string): Promise<number> {
  const [row] = (await trx('purchases as p')
    .leftJoin('coupons as c', 'c.id', 'p.bulkCouponId')
    .where('p.productId', productId)
    .whereNull('p.redeemedBulkCouponId')
    .whereIn('p.status', ['Valid', 'Restricted'])
    .sum({ seats: trx.raw('CASE WHEN p.bulk_coupon_id IS NULL THEN 1 ELSE c.max_uses END') })) as { seats: number | string | null }[];
  return Number(row?.seats ?? 0);
}
