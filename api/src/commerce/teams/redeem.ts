import type { Knex } from 'knex';
import { AppError } from '../../shared/errors';
import { teamWelcomeEmail } from '../../mail/templates';
import { leadInPath } from '../checkout/lead-in';
import { holdingOf } from '../purchases/ownership';
import type { InviteAnswer, RedeemedSeat, TeamView } from '../schemas';
import { isGift, lockTeam, teamLive, teamView, type CouponRow, type TeamDeps, type TeamRow } from './team-view';

/** Taking a seat in a team (docs/domain.md §7): through the invite link, or the owner's own seat. */

const INVITE_NOT_FOUND =
  "This invite link is not valid: its team's owner may have replaced it. Ask them for the current link.";

const TEAM_INACTIVE = 'This team is no longer active; ask its owner for a new invite.';

/**
 * Takes a seat for `userId`: one per person and product, refused to anyone who already has the course, to
 * anyone the owner removed from this team (until let back in), and to a gift's own buyer. Through an invite link, `inviteCode` is the code it
 * named: a link replaced while this runs is refused too. Seats are taken with one conditional update on the team
 * coupon, so N people racing for M free seats get M.
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
  const team = (await trx('purchases')
    .where({ id: coupon.bulkPurchaseId })
    .first('id', 'userId', 'status', 'productId')) as TeamRow;
  if (coupon.status !== 'active' || !(await teamLive(trx, couponId))) {
    throw new AppError('coupon-inactive', TEAM_INACTIVE);
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
  // A gift is for someone else: its buyer opening the claim link to check it must not spend it on themselves.
  if (userId === team.userId && (await isGift(trx, team.id))) {
    throw new AppError(
      'gift-not-for-buyer',
      'You bought this as a gift, so it is for someone else: send them the claim link. To study the course yourself, buy it for yourself.',
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
    if (now.status !== 'active') throw new AppError('coupon-inactive', TEAM_INACTIVE);
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
async function welcome(
  { config, outbox }: TeamDeps,
  trx: Knex.Transaction,
  userId: string,
  productId: string,
): Promise<string> {
  // One after another: a transaction is one connection, which runs one statement at a time.
  const user = await trx('users').where({ id: userId }).first('email');
  const product = await trx('products').where({ id: productId }).first('name');
  // Into the course the seat opens, not its sales page.
  const path = await leadInPath(trx, productId);
  await outbox.enqueue(trx, teamWelcomeEmail(user.email, product.name, new URL(path, config.publicUrl).toString()));
  return path;
}

/** What the invite page shows before anyone signs in: the course and whether a seat is free. */
export async function inviteOf({ db }: TeamDeps, inviteCode: string): Promise<InviteAnswer> {
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
      db.raw('exists (select 1 from checkouts g where g.purchase_id = p.id and g.gift) as gift'),
    );
  if (!row) throw new AppError('coupon-not-found', INVITE_NOT_FOUND);
  return {
    product: { id: row.productId, name: row.productName, slug: row.productSlug },
    ownerName: row.ownerName as string | null,
    active: row.status === 'active' && Boolean(await teamLive(db, row.id)),
    seatsFree: Math.max(0, row.maxUses - row.usedCount),
    gift: row.gift === true,
  };
}

/** A signed-in person takes a seat through the invite link; the welcome email goes after commit. */
export async function redeemInvite(deps: TeamDeps, inviteCode: string, userId: string): Promise<RedeemedSeat> {
  const result = await deps.db.transaction(async (trx) => {
    const seat = await redeemSeat(trx, await couponOfInvite(trx, inviteCode), userId, inviteCode);
    return { ...seat, coursePath: await welcome(deps, trx, userId, seat.productId) };
  });
  deps.outbox.flushInBackground();
  return result;
}

/** The owner takes one of their own seats (one click). */
export async function claimForOwner(deps: TeamDeps, purchaseId: string, userId: string): Promise<TeamView> {
  return deps.db.transaction(async (trx) => {
    const team = await lockTeam(trx, purchaseId, { id: userId, staff: false });
    await redeemSeat(trx, team.bulkCouponId, userId);
    return teamView(deps, trx, team, userId);
  });
}
