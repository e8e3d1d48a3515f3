import { recordAudit, type Actor } from '../../audit/record';
import type { Db } from '../../db/connection';
import { AppError } from '../../shared/errors';
import { GRANTING_STATUSES } from '../models';
import type { AddSeatsRequest, KeptOutMember, SeatsAdded, TeamRoster, TeamSeat } from '../schemas';
import { seatsSold } from '../../catalog/seats-sold';

const GRANTS_ACCESS: readonly string[] = GRANTING_STATUSES;

/** A seat still held (its purchase grants access), in SQL: bound to GRANTS_ACCESS. */
const HELD = 's.status = ANY(?::text[])';

const TEAM_INACTIVE = 'This team is no longer active (its purchase ended): seats cannot be added to it.';

/**
 * Support's tools for a team (docs/domain.md §7) beyond what its owner does on the storefront: seats given without a
 * charge, and the team's whole roster, ended seats included.
 *
 * Seats added here are a comp: no purchase, no charge, no revenue-split line; the team coupon's `maxUses` grows, which
 * is how every seat of a team is counted (once, however many purchases or comps added to it). So they count against
 * the product's seat limit, toward the buyer's team tier on a later purchase, and the storefront's team page shows
 * the new total at once. A refund of a paid addition takes back only the seats that addition bought.
 */
export function teamSupport({ db }: { db: Db }) {
  return {
    /**
     * Adds seats to a live team, audited with the reason. Locks the product first (as fulfilment does: a payment for
     * the last seats and this addition are counted one after the other), then the team and its coupon.
     */
    async addSeats(
      teamId: string,
      { seats, reason }: AddSeatsRequest,
      actor: Actor,
      requestId: string | null,
    ): Promise<SeatsAdded> {
      return db.transaction(async (trx) => {
        const found = await trx('purchases').where({ id: teamId }).whereNotNull('bulkCouponId').first('productId');
        if (!found) throw new AppError('team-not-found', 'No such team.');
        const product = await trx('products').where({ id: found.productId }).forUpdate().first('quantityAvailable');
        const team = await trx('purchases').where({ id: teamId }).forUpdate().first('id', 'bulkCouponId');
        const coupon = await trx('coupons')
          .where({ id: team.bulkCouponId })
          .forUpdate()
          .first('maxUses', 'usedCount', 'status');
        const live = await trx('purchases')
          .where({ bulkCouponId: team.bulkCouponId })
          .whereIn('status', GRANTS_ACCESS)
          .first('id');
        if (coupon.status !== 'active' || !live) throw new AppError('team-inactive', TEAM_INACTIVE);
        if (product.quantityAvailable >= 0) {
          const left = Math.max(0, product.quantityAvailable - (await seatsSold(trx, found.productId)));
          if (seats > left) {
            const message =
              left === 0 ? 'no seat of this product is left' : `only ${left} seats of this product are left`;
            throw new AppError('sold-out', `Cannot add ${seats} seats: ${message}.`, { seats: message });
          }
        }
        const [after] = (await trx('coupons')
          .where({ id: team.bulkCouponId })
          .increment('maxUses', seats)
          .returning(['maxUses', 'usedCount'])) as { maxUses: number; usedCount: number }[];
        await recordAudit(trx, {
          actor,
          action: 'team.seats-added',
          resource: 'purchases',
          recordId: teamId,
          before: { seats: coupon.maxUses },
          after: { seats: after!.maxUses, added: seats, reason, charged: 0 },
          requestId,
        });
        const total = after!.maxUses;
        return { added: seats, seats: { total, used: after!.usedCount, free: Math.max(0, total - after!.usedCount) } };
      });
    },

    /**
     * Every seat of the team: held ones first (first joined first), then ended ones (last ended first), each ended
     * one with when, by whom (the audit log of its revocation) and why; the buyer, and whether they hold a seat; the
     * people the invite link refuses until let back in.
     */
    async roster(teamId: string): Promise<TeamRoster> {
      const team = await db('purchases as p')
        .join('users as u', 'u.id', 'p.userId')
        .where('p.id', teamId)
        .whereNotNull('p.bulkCouponId')
        .first('p.bulkCouponId', 'u.id as userId', 'u.email', 'u.name');
      if (!team) throw new AppError('team-not-found', 'No such team.');
      const revocation = db('auditLogs as a')
        .where({ 'a.resource': 'purchases', 'a.action': 'team.seat-revoked' })
        .whereRaw('a.record_id = s.id::text')
        .orderBy('a.id', 'desc')
        .limit(1)
        .select('a.createdAt', 'a.actorEmail')
        .as('r');
      const rows = (await db('purchases as s')
        .join('users as u', 'u.id', 's.userId')
        .joinRaw(`LEFT JOIN LATERAL (${revocation.toQuery()}) r ON true`)
        .where('s.redeemedBulkCouponId', team.bulkCouponId)
        .orderByRaw(`${HELD} DESC, CASE WHEN ${HELD} THEN s.created_at END ASC, s.updated_at DESC`, [
          [...GRANTS_ACCESS],
          [...GRANTS_ACCESS],
        ])
        .select(
          's.id as purchaseId',
          'u.id as userId',
          'u.email',
          'u.name',
          's.status',
          's.createdAt as joinedAt',
          's.updatedAt',
          's.statusReason as reason',
          'r.createdAt as revokedAt',
          'r.actorEmail as revokedBy',
        )) as (Omit<TeamSeat, 'buyer' | 'endedAt' | 'endedBy'> & {
        updatedAt: Date;
        revokedAt: Date | null;
        revokedBy: string | null;
      })[];
      const seats: TeamSeat[] = rows.map(({ updatedAt, revokedAt, revokedBy, ...seat }) => {
        const held = GRANTS_ACCESS.includes(seat.status);
        return {
          ...seat,
          buyer: seat.userId === team.userId,
          endedAt: held ? null : (revokedAt ?? updatedAt),
          endedBy: held ? null : revokedBy,
          reason: held ? null : seat.reason,
        };
      });
      const keptOut = (await db('teamSeatRevocations as k')
        .join('users as u', 'u.id', 'k.userId')
        .leftJoin('users as by', 'by.id', 'k.revokedById')
        .where('k.couponId', team.bulkCouponId)
        .orderBy('k.createdAt', 'desc')
        .select('u.id as userId', 'u.email', 'u.name', 'k.createdAt as since', 'by.email as by')) as KeptOutMember[];
      return {
        buyer: {
          userId: team.userId,
          email: team.email,
          name: team.name,
          hasSeat: seats.some((s) => s.buyer && GRANTS_ACCESS.includes(s.status)),
        },
        seats,
        keptOut,
      };
    },
  };
}

export type TeamSupport = ReturnType<typeof teamSupport>;
