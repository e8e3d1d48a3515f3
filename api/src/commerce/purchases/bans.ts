import { recordAudit, type Actor } from '../../audit/record';
import type { Db } from '../../db/connection';
import { AppError } from '../../shared/errors';
import type { BanResult } from '../schemas';
import { keepOutOfTeam } from '../teams/seats';
import { endAccess } from './end-access';
import { lockedPurchase } from './locks';
import { moveStatus } from './status-edges';

/** Ends a purchase's access for good; only an admin may (the route says so), always with a reason. */
export async function banPurchase(
  db: Db,
  purchaseId: string,
  reason: string,
  actor: Actor,
  requestId: string | null = null,
): Promise<BanResult> {
  return db.transaction(async (trx) => {
    // A member's seat: the team's coupon is locked first, the order team changes take (coupon, then seats).
    const seat = await trx('purchases').where({ id: purchaseId }).first('redeemedBulkCouponId');
    if (seat?.redeemedBulkCouponId)
      await trx('coupons').where({ id: seat.redeemedBulkCouponId }).forUpdate().first('id');
    const purchase = await lockedPurchase(trx, purchaseId);
    if (!(await moveStatus(trx, purchase.id, 'Banned', reason))) {
      throw new AppError('status-change-not-allowed', `A ${purchase.status.toLowerCase()} purchase cannot be banned.`);
    }
    await endAccess(trx, purchase, 'Banned', reason);
    if (purchase.redeemedBulkCouponId) {
      // A banned member's seat goes back to the team, and the invite link refuses them as a revoked member.
      await trx('coupons')
        .where({ id: purchase.redeemedBulkCouponId })
        .where('usedCount', '>', 0)
        .decrement('usedCount', 1);
      await keepOutOfTeam(trx, purchase.redeemedBulkCouponId, purchase.userId, actor.id);
    }
    await recordAudit(trx, {
      actor,
      action: 'purchase.banned',
      resource: 'purchases',
      recordId: purchase.id,
      before: { status: purchase.status },
      after: { status: 'Banned', reason },
      requestId,
    });
    return { status: 'Banned' as const };
  });
}
