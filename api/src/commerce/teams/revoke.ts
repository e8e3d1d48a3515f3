import { recordAudit, type Actor } from '../../audit/record';
import { teamSeatRevokedEmail } from '../../mail/templates';
import { AppError } from '../../shared/errors';
import type { TeamView } from '../schemas';
import { cancelOpenTransfers } from '../transfers/transfers';
import { keepOutOfTeam } from './seats';
import { GRANTS_ACCESS, isGift, lockTeam, teamView, type TeamDeps } from './team-view';

/** The owner's (or support's) changes to a team (docs/domain.md §7): a seat revoked, a member let back in, a new link. */

type TeamActor = Actor & { staff: boolean };

/** Why a seat ended, as the member's purchase and the console show it; a gift is taken back, not a seat removed. */
const revocationReason = (ownSeat: boolean, bySupport: boolean, gift: boolean): string => {
  if (gift) return bySupport ? 'Support took this gift back for its buyer.' : 'The gift’s buyer took it back.';
  if (ownSeat) return "The team's owner gave up their own seat.";
  return bySupport ? 'Support removed this seat from the team.' : "The team's owner removed this seat.";
};

/**
 * Frees a member's seat: their seat purchase ends, marked Revoked (they lose access), their progress stays (it belongs to
 * the person, not the seat), the seat can be given to someone else, and they are told by email. The invite link
 * refuses them from then on, until the owner lets them back in.
 */
export async function revokeSeat(
  deps: TeamDeps,
  purchaseId: string,
  memberPurchaseId: string,
  actor: TeamActor,
  requestId: string | null = null,
): Promise<TeamView> {
  const { db, outbox } = deps;
  const result = await db.transaction(async (trx) => {
    const team = await lockTeam(trx, purchaseId, actor);
    const ownerActing = actor.id === team.userId;
    // Coupon before seat: the order every team change takes.
    await trx('coupons').where({ id: team.bulkCouponId }).forUpdate().first('id');
    const seat = await trx('purchases')
      .where({ id: memberPurchaseId, redeemedBulkCouponId: team.bulkCouponId })
      .whereIn('status', GRANTS_ACCESS)
      .forUpdate()
      .first();
    if (!seat) throw new AppError('not-found', 'That person has no seat in this team.');
    const ownSeat = seat.userId === team.userId;
    const gift = await isGift(trx, team.id);
    // The seat is kept, marked Revoked, so the audit log and the member's history still lead to it.
    const after = { status: 'Revoked', statusReason: revocationReason(ownSeat, actor.staff && !ownerActing, gift) };
    await trx('purchases').where({ id: seat.id }).update(after);
    await cancelOpenTransfers(trx, seat.id);
    await trx('coupons').where({ id: team.bulkCouponId }).where('usedCount', '>', 0).decrement('usedCount', 1);
    await recordAudit(trx, {
      actor,
      action: 'team.seat-revoked',
      resource: 'purchases',
      recordId: seat.id,
      before: { status: seat.status, statusReason: seat.statusReason },
      after,
      requestId,
    });
    // The owner giving up their own seat may take it again; anyone else is removed and told.
    if (!ownSeat) {
      await keepOutOfTeam(trx, team.bulkCouponId, seat.userId, actor.id);
      const member = await trx('users').where({ id: seat.userId }).first('email');
      const owner = await trx('users').where({ id: team.userId }).first('email');
      const product = await trx('products').where({ id: team.productId }).first('name');
      // In the revocation's transaction: the member is told exactly when the seat is gone.
      const removal = { ownerEmail: owner.email, bySupport: actor.staff && !ownerActing, gift };
      await outbox.enqueue(trx, teamSeatRevokedEmail(member.email, product.name, removal));
    }
    return teamView(deps, trx, team, actor.id!);
  });
  outbox.flushInBackground();
  return result;
}

/** The owner lets a removed member take a seat through the invite link again. */
export async function readmitMember(
  deps: TeamDeps,
  purchaseId: string,
  userId: string,
  actor: TeamActor,
  requestId: string | null = null,
): Promise<TeamView> {
  return deps.db.transaction(async (trx) => {
    const team = await lockTeam(trx, purchaseId, actor);
    const removed = await trx('teamSeatRevocations').where({ couponId: team.bulkCouponId, userId }).delete();
    if (!removed) throw new AppError('not-found', 'That person was not removed from this team.');
    await recordAudit(trx, {
      actor,
      action: 'team.member-readmitted',
      resource: 'purchases',
      recordId: team.id,
      after: { userId },
      requestId,
    });
    return teamView(deps, trx, team, actor.id!);
  });
}

/** A new invite link for the team; the old one stops working at once. */
export async function resetInvite(
  deps: TeamDeps,
  purchaseId: string,
  actor: TeamActor,
  requestId: string | null = null,
): Promise<TeamView> {
  return deps.db.transaction(async (trx) => {
    const team = await lockTeam(trx, purchaseId, actor);
    await trx('coupons')
      .where({ id: team.bulkCouponId })
      .update({ inviteCode: trx.raw('gen_random_uuid()') });
    await recordAudit(trx, {
      actor,
      action: 'team.invite-reset',
      resource: 'purchases',
      recordId: team.id,
      requestId,
    });
    return teamView(deps, trx, team, actor.id!);
  });
}
