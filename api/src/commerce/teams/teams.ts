import type { Knex } from 'knex';
import { recordAudit, type Actor } from '../../audit/record';
import type { Config } from '../../config';
import type { Db } from '../../db/connection';
import { AppError } from '../../shared/errors';
import type { Outbox } from '../../mail/outbox';
import { teamSeatRevokedEmail, teamWelcomeEmail } from '../../mail/templates';
import { leadInPath } from '../checkout/lead-in';
import { GRANTING_STATUSES, type Coupon, type Purchase } from '../models';
import { holdingOf } from '../purchases/ownership';
import type { InviteAnswer, RedeemedSeat, RevokedMember, TeamMember, TeamView } from '../schemas';
import { keepOutOfTeam } from './seats';
import { cancelOpenTransfers } from '../transfers/transfers';

/** A team is the purchase that carries its coupon (read only where bulk_coupon_id is set, so never null here). */
type TeamRow = Pick<Purchase, 'id' | 'userId' | 'productId' | 'status' | 'createdAt'> & { bulkCouponId: string };

type CouponRow = Pick<
  Coupon,
  'id' | 'inviteCode' | 'maxUses' | 'usedCount' | 'status' | 'bulkPurchaseId' | 'restrictedToProductId'
>;

interface Deps {
  db: Db;
  config: Pick<Config, 'publicUrl'>;
  outbox: Outbox;
}

const INVITE_NOT_FOUND =
  "This invite link is not valid: its team's owner may have replaced it. Ask them for the current link.";

const GRANTS_ACCESS: readonly string[] = GRANTING_STATUSES;

/** Why a seat ended, as the member's purchase and the console show it. */
const revocationReason = (ownSeat: boolean, bySupport: boolean): string =>
  ownSeat
    ? "The team's owner gave up their own seat."
    : bySupport
      ? 'Support removed this seat from the team.'
      : "The team's owner removed this seat.";

/**
 * Team purchases (docs/domain.md §7): the owner's team page, seats claimed through the invite link, revoked seats.
 * Seats are taken with one conditional update on the team coupon, so N people racing for M free seats get M.
 */
export function teamService({ db, config, outbox }: Deps) {
  const inviteUrl = (inviteCode: string) => new URL(`/invites/${inviteCode}`, config.publicUrl).toString();

  /** A team lets people in while any of its purchases (the first, or seats added later) still grants access. */
  const teamLive = (trx: Knex | Knex.Transaction, couponId: string) =>
    trx('purchases').where({ bulkCouponId: couponId }).whereIn('status', GRANTS_ACCESS).first('status');

  /** The team purchase behind a coupon, locked; staff may act on any team, owners only on theirs. */
  async function lockTeam(
    trx: Knex.Transaction,
    purchaseId: string,
    actor: { id: string; staff: boolean },
  ): Promise<TeamRow> {
    const team = (await trx('purchases').where({ id: purchaseId }).whereNotNull('bulkCouponId').forUpdate().first()) as
      TeamRow | undefined;
    if (!team || (!actor.staff && team.userId !== actor.id)) throw new AppError('team-not-found', 'No such team.');
    return team;
  }

  async function view(trx: Knex | Knex.Transaction, team: TeamRow, viewerId: string): Promise<TeamView> {
    // One statement at a time: `trx` may be a transaction, whose one connection runs one at a time.
    const coupon = (await trx('coupons')
      .where({ id: team.bulkCouponId })
      .first('maxUses', 'usedCount', 'inviteCode')) as CouponRow;
    const product = await trx('products').where({ id: team.productId }).first('id', 'name', 'slug');
    const members = await trx('purchases as p')
      .join('users as u', 'u.id', 'p.userId')
      .where('p.redeemedBulkCouponId', team.bulkCouponId)
      .whereIn('p.status', GRANTS_ACCESS)
      .orderBy('p.createdAt')
      .select('p.id as purchaseId', 'u.id as userId', 'u.email', 'u.name', 'p.createdAt as joinedAt');
    const revoked = (await trx('teamSeatRevocations as r')
      .join('users as u', 'u.id', 'r.userId')
      .where('r.couponId', team.bulkCouponId)
      .orderBy('r.createdAt', 'desc')
      .select('u.id as userId', 'u.email', 'u.name', 'r.createdAt as revokedAt')) as RevokedMember[];
    const live = await teamLive(trx, team.bulkCouponId);
    return {
      purchaseId: team.id,
      product,
      status: live?.status ?? team.status,
      seats: { total: coupon.maxUses, used: coupon.usedCount, free: Math.max(0, coupon.maxUses - coupon.usedCount) },
      inviteUrl: inviteUrl(coupon.inviteCode),
      ownerHasSeat: members.some((m: TeamMember) => m.userId === team.userId),
      members: members.map((m: Omit<TeamMember, 'you'>) => ({ ...m, you: m.userId === viewerId })),
      revoked,
    };
  }

  /**
   * Takes a seat for `userId`: one per person and product, refused to anyone who already has the course and to
   * anyone the owner removed from this team (until let back in). Through an invite link, `inviteCode` is the code it
   * named: a link replaced while this runs is refused too.
   */
  async function redeemSeat(
    trx: Knex.Transaction,
    couponId: string,
    userId: string,
    inviteCode?: string,
  ): Promise<Omit<RedeemedSeat, 'coursePath'>> {
    const coupon = (await trx('coupons').where({ id: couponId }).whereNotNull('bulkPurchaseId').first()) as
      CouponRow | undefined;
    if (!coupon) throw new AppError('coupon-not-found', INVITE_NOT_FOUND);
    const team = (await trx('purchases').where({ id: coupon.bulkPurchaseId }).first('status', 'productId')) as TeamRow;
    if (coupon.status !== 'active' || !(await teamLive(trx, couponId))) {
      throw new AppError('coupon-inactive', 'This team is no longer active; ask its owner for a new invite.');
    }
    // A payment or transfer of the course being written now is waited for (they lock the product), and one user's
    // redemptions run one at a time, so the "already has it" check cannot be raced. Product before user: the order
    // fulfilment takes them in.
    await trx('products').where({ id: team.productId }).forShare().first('id');
    await trx('users').where({ id: userId }).forUpdate().first('id');
    if (await trx('teamSeatRevocations').where({ couponId, userId }).first('id')) {
      throw new AppError(
        'seat-revoked',
        "The team's owner removed you from this team. Ask them to let you back in from their team page.",
      );
    }
    const owned = await holdingOf(trx, userId, team.productId);
    if (owned) {
      throw new AppError(
        'already-purchased',
        owned.redeemedBulkCouponId ? 'You already have a seat for this course.' : 'You already own this course.',
      );
    }
    // Conditional on the team still being open (a refund closing it meanwhile wins) and on the link still being its
    // current one: a reset committed meanwhile (it updates this row, so this waits for it) refuses the old link.
    const taken = await trx('coupons')
      .where({ id: couponId, status: 'active', ...(inviteCode && { inviteCode }) })
      .where('usedCount', '<', trx.raw('max_uses'))
      .increment('usedCount', 1);
    if (!taken) {
      const now = await trx('coupons').where({ id: couponId }).first('status', 'inviteCode');
      if (inviteCode && now.inviteCode !== inviteCode) throw new AppError('coupon-not-found', INVITE_NOT_FOUND);
      if (now.status !== 'active')
        throw new AppError('coupon-inactive', 'This team is no longer active; ask its owner for a new invite.');
      throw new AppError('coupon-used-up', 'Every seat of this team is taken. Ask its owner to buy more seats.');
    }
    const [purchase] = await trx('purchases')
      .insert({
        userId,
        productId: team.productId,
        status: 'Valid',
        totalAmount: 0,
        redeemedBulkCouponId: couponId,
        couponId,
      })
      .returning('id');
    return { purchaseId: purchase.id, productId: team.productId };
  }

  /** The team coupon an invite link names (by its current code). */
  async function couponOfInvite(trx: Knex | Knex.Transaction, inviteCode: string): Promise<string> {
    const coupon = await trx('coupons').where({ inviteCode }).whereNotNull('bulkPurchaseId').first('id');
    if (!coupon) throw new AppError('coupon-not-found', INVITE_NOT_FOUND);
    return coupon.id;
  }

  /** The welcome email of a new member; answers the course path it links to. */
  async function welcome(trx: Knex.Transaction, userId: string, productId: string): Promise<string> {
    // One after another: a transaction is one connection, which runs one statement at a time.
    const user = await trx('users').where({ id: userId }).first('email');
    const product = await trx('products').where({ id: productId }).first('name');
    // Into the course the seat opens, not its sales page.
    const path = await leadInPath(trx, productId);
    await outbox.enqueue(trx, teamWelcomeEmail(user.email, product.name, new URL(path, config.publicUrl).toString()));
    return path;
  }

  return {
    /** The buyer's teams, newest first. */
    async mine(userId: string): Promise<TeamView[]> {
      const teams = (await db('purchases')
        .where({ userId })
        .whereNotNull('bulkCouponId')
        .orderBy('createdAt', 'desc')) as TeamRow[];
      return Promise.all(teams.map((team) => view(db, team, userId)));
    },

    async get(purchaseId: string, actor: { id: string; staff: boolean }): Promise<TeamView> {
      return db.transaction(async (trx) => view(trx, await lockTeam(trx, purchaseId, actor), actor.id));
    },

    /** What the invite page shows before anyone signs in: the course and whether a seat is free. */
    async invite(inviteCode: string): Promise<InviteAnswer> {
      const row = await db('coupons as c')
        .join('purchases as p', 'p.id', 'c.bulkPurchaseId')
        .join('products as pr', 'pr.id', 'p.productId')
        .join('users as u', 'u.id', 'p.userId')
        .where('c.inviteCode', inviteCode)
        .first(
          'c.id',
          'c.maxUses',
          'c.usedCount',
          'c.status',
          'pr.id as productId',
          'pr.name as productName',
          'pr.slug as productSlug',
          'u.name as ownerName',
        );
      if (!row) throw new AppError('coupon-not-found', INVITE_NOT_FOUND);
      return {
        product: { id: row.productId, name: row.productName, slug: row.productSlug },
        ownerName: row.ownerName as string | null,
        active: row.status === 'active' && Boolean(await teamLive(db, row.id)),
        seatsFree: Math.max(0, row.maxUses - row.usedCount),
      };
    },

    /** A signed-in person takes a seat through the invite link; the welcome email goes after commit. */
    async redeem(inviteCode: string, userId: string): Promise<RedeemedSeat> {
      const result = await db.transaction(async (trx) => {
        const seat = await redeemSeat(trx, await couponOfInvite(trx, inviteCode), userId, inviteCode);
        return { ...seat, coursePath: await welcome(trx, userId, seat.productId) };
      });
      outbox.flushInBackground();
      return result;
    },

    /** The owner takes one of their own seats (one click). */
    async claimForOwner(purchaseId: string, userId: string): Promise<TeamView> {
      const result = await db.transaction(async (trx) => {
        const team = await lockTeam(trx, purchaseId, { id: userId, staff: false });
        await redeemSeat(trx, team.bulkCouponId, userId);
        return view(trx, team, userId);
      });
      return result;
    },

    /**
     * Frees a member's seat: their seat purchase ends, marked Revoked (they lose access), their progress stays (it belongs to
     * the person, not the seat), the seat can be given to someone else, and they are told by email. The invite link
     * refuses them from then on, until the owner lets them back in.
     */
    async revoke(
      purchaseId: string,
      memberPurchaseId: string,
      actor: Actor & { staff: boolean },
      requestId: string | null = null,
    ): Promise<TeamView> {
      const result = await db.transaction(async (trx) => {
        const team = await lockTeam(trx, purchaseId, { id: actor.id!, staff: actor.staff });
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
        // The seat is kept, marked Revoked, so the audit log and the member's history still lead to it.
        const after = { status: 'Revoked', statusReason: revocationReason(ownSeat, actor.staff && !ownerActing) };
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
          const removal = { ownerEmail: owner.email, bySupport: actor.staff && !ownerActing };
          await outbox.enqueue(trx, teamSeatRevokedEmail(member.email, product.name, removal));
        }
        return view(trx, team, actor.id!);
      });
      outbox.flushInBackground();
      return result;
    },

    /** The owner lets a removed member take a seat through the invite link again. */
    async readmit(
      purchaseId: string,
      userId: string,
      actor: Actor & { staff: boolean },
      requestId: string | null = null,
    ): Promise<TeamView> {
      return db.transaction(async (trx) => {
        const team = await lockTeam(trx, purchaseId, { id: actor.id!, staff: actor.staff });
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
        return view(trx, team, actor.id!);
      });
    },

    /** A new invite link for the team; the old one stops working at once. */
    async resetInvite(
      purchaseId: string,
      actor: Actor & { staff: boolean },
      requestId: string | null = null,
    ): Promise<TeamView> {
      return db.transaction(async (trx) => {
        const team = await lockTeam(trx, purchaseId, { id: actor.id!, staff: actor.staff });
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
        return view(trx, team, actor.id!);
      });
    },
  };
}

export type TeamService = ReturnType<typeof teamService>;
