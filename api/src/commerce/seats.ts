import type { Knex } from 'knex';

/**
 * Seats sold of a product: one per individual purchase, the seats of each team purchase (its coupon's uses);
 * redeemed seats are inside their team's count. Refunded, disputed and banned purchases give their seats back.
 */
export async function seatsSold(trx: Knex | Knex.Transaction, productId: string): Promise<number> {
  return (await seatsSoldOf(trx, [productId])).get(productId) ?? 0;
}

/** Seats sold of several products in one query (products with none are absent). */
export async function seatsSoldOf(trx: Knex | Knex.Transaction, productIds: string[]): Promise<Map<string, number>> {
  if (productIds.length === 0) return new Map();
  const rows = (await trx('purchases as p')
    .leftJoin('coupons as c', 'c.id', 'p.bulkCouponId')
    .whereIn('p.productId', productIds)
    .whereNull('p.redeemedBulkCouponId')
    .whereIn('p.status', ['Valid', 'Restricted'])
    .groupBy('p.productId')
    .select('p.productId')
    .sum({ seats: trx.raw('CASE WHEN p.bulk_coupon_id IS NULL THEN 1 ELSE c.max_uses END') })) as { productId: string; seats: number | string }[];
  return new Map(rows.map((r) => [r.productId, Number(r.seats)]));
}
