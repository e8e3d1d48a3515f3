import type { Knex } from 'knex';
import { GRANTING_STATUSES, type PurchaseStatus } from '../models';
import { cancelOpenTransfers } from '../transfers/transfers';
import type { PurchaseRow } from './locks';
import { sourcesOf } from './status-edges';

/** A purchase that no longer grants access takes its open transfer and, for a team, its seats with it. */
export async function endAccess(
  trx: Knex.Transaction,
  purchase: PurchaseRow,
  status: PurchaseStatus,
  reason: string | null,
): Promise<void> {
  await cancelOpenTransfers(trx, purchase.id);
  if (purchase.bulkCouponId && status !== 'Disputed')
    await takeSeatsBack(trx, purchase, status, reason ?? `the team purchase was ${status.toLowerCase()}`);
}

/**
 * A team purchase that ended takes the seats it bought out of its team (docs/domain.md §7): when no other purchase of
 * the team is live (or disputed) the team closes and every seat ends; otherwise the team shrinks by its seats, and if
 * more people hold seats than remain, the latest to join lose theirs.
 */
async function takeSeatsBack(
  trx: Knex.Transaction,
  purchase: PurchaseRow,
  status: PurchaseStatus,
  reason: string,
): Promise<void> {
  const couponId = purchase.bulkCouponId!;
  const coupon = await trx('coupons').where({ id: couponId }).forUpdate().first('maxUses', 'usedCount');
  // A disputed purchase still holds its seats until the dispute ends, so it keeps the team open too.
  const live = await trx('purchases')
    .where({ bulkCouponId: couponId })
    .whereNot({ id: purchase.id })
    .whereIn('status', [...GRANTING_STATUSES, 'Disputed'])
    .first('id');
  const seats = live
    ? ((await trx('checkouts').where({ purchaseId: purchase.id }).first('quantity'))?.quantity ?? coupon.maxUses)
    : coupon.maxUses;
  const excess = Math.max(0, coupon.usedCount - (coupon.maxUses - seats));
  const members = trx('purchases').where({ redeemedBulkCouponId: couponId }).whereIn('status', sourcesOf(status));
  if (!live) {
    await members.update({ status, statusReason: reason });
    await trx('coupons').where({ id: couponId }).update({ status: 'inactive' });
    return;
  }
  let ended = 0;
  if (excess > 0) {
    const latest = members.clone().orderBy('createdAt', 'desc').limit(excess).select('id');
    ended = await trx('purchases').whereIn('id', latest).update({ status, statusReason: reason });
  }
  await trx('coupons')
    .where({ id: couponId })
    .update({
      usedCount: coupon.usedCount - ended,
      maxUses: Math.max(coupon.maxUses - seats, coupon.usedCount - ended),
    });
}
