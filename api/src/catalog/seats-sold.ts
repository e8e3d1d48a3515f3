import type { Knex } from 'knex';
import { GRANTING_STATUSES } from '../shared/purchase-status';

/**
 * Seats (docs/domain.md §2, §7). A team coupon's `maxUses` is the team's seats, however many purchases added to it, so
 * a team is counted once, by its coupon, never once per purchase; redeemed seats are inside their team's count.
 * Refunded, disputed and banned purchases give their seats back.
 */

/** The live team coupons of a set of purchases, each once, with its product and seats. */
export const liveTeams = (trx: Knex | Knex.Transaction) =>
  trx('purchases as p')
    .join('coupons as c', 'c.id', 'p.bulkCouponId')
    .whereIn('p.status', GRANTING_STATUSES)
    .distinct('c.id', 'p.productId', 'c.maxUses');

/** Seats sold of a product: one per individual purchase, plus every live team's seats. */
export async function seatsSold(trx: Knex | Knex.Transaction, productId: string): Promise<number> {
  return (await seatsSoldOf(trx, [productId])).get(productId) ?? 0;
}

/** Seats sold of several products in one query (products with none are absent). */
export async function seatsSoldOf(trx: Knex | Knex.Transaction, productIds: string[]): Promise<Map<string, number>> {
  if (productIds.length === 0) return new Map();
  const individual = trx('purchases')
    .whereIn('productId', productIds)
    .whereNull('bulkCouponId')
    .whereNull('redeemedBulkCouponId')
    .whereIn('status', GRANTING_STATUSES)
    .select('productId', trx.raw('1 AS seats'));
  const teams = trx
    .from(liveTeams(trx).whereIn('p.productId', productIds).as('t'))
    .select('productId', 'maxUses as seats');
  const rows = (await trx
    .from(trx.unionAll([individual, teams], true).as('s'))
    .groupBy('productId')
    .select('productId')
    .sum({ seats: 'seats' })) as { productId: string; seats: number | string }[];
  return new Map(rows.map((r) => [r.productId, Number(r.seats)]));
}
