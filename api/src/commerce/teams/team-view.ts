import type { Knex } from 'knex';
import type { Config } from '../../config';
import type { Db } from '../../db/connection';
import type { Outbox } from '../../mail/outbox';
import { AppError } from '../../shared/errors';
import { GRANTING_STATUSES, type Coupon, type Purchase } from '../models';
import type { RevokedMember, TeamMember, TeamView } from '../schemas';

/** What the team's steps are built from (passed by the composition root). */
export interface TeamDeps {
  db: Db;
  config: Pick<Config, 'publicUrl'>;
  outbox: Outbox;
}

/** A team is the purchase that carries its coupon (read only where bulk_coupon_id is set, so never null here). */
export type TeamRow = Pick<Purchase, 'id' | 'userId' | 'productId' | 'status' | 'createdAt'> & { bulkCouponId: string };

export type CouponRow = Pick<
  Coupon,
  'id' | 'inviteCode' | 'maxUses' | 'usedCount' | 'status' | 'bulkPurchaseId' | 'restrictedToProductId'
>;

export const GRANTS_ACCESS: readonly string[] = GRANTING_STATUSES;

/** A team lets people in while any of its purchases (the first, or seats added later) still grants access. */
export const teamLive = (trx: Knex | Knex.Transaction, couponId: string) =>
  trx('purchases').where({ bulkCouponId: couponId }).whereIn('status', GRANTS_ACCESS).first('status');

/** The team purchase behind a coupon, locked; staff may act on any team, owners only on theirs. */
export async function lockTeam(
  trx: Knex.Transaction,
  purchaseId: string,
  actor: { id: string | null; staff: boolean },
): Promise<TeamRow> {
  const team = (await trx('purchases').where({ id: purchaseId }).whereNotNull('bulkCouponId').forUpdate().first()) as
    TeamRow | undefined;
  if (!team || (!actor.staff && team.userId !== actor.id)) throw new AppError('team-not-found', 'No such team.');
  return team;
}

/** A gift is a team bought by a checkout marked `gift` (one seat for someone else, docs/domain.md §7). */
export const isGift = async (trx: Knex | Knex.Transaction, teamId: string): Promise<boolean> =>
  Boolean(await trx('checkouts').where({ purchaseId: teamId, gift: true }).first('id'));

/** The owner's team page: seats, the invite link, members and the people removed. */
export async function teamView(
  { config }: Pick<TeamDeps, 'config'>,
  trx: Knex | Knex.Transaction,
  team: TeamRow,
  viewerId: string,
): Promise<TeamView> {
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
    gift: await isGift(trx, team.id),
    purchaseId: team.id,
    product,
    status: live?.status ?? team.status,
    seats: { total: coupon.maxUses, used: coupon.usedCount, free: Math.max(0, coupon.maxUses - coupon.usedCount) },
    inviteUrl: new URL(`/invites/${coupon.inviteCode}`, config.publicUrl).toString(),
    ownerHasSeat: members.some((m: TeamMember) => m.userId === team.userId),
    members: members.map((m: Omit<TeamMember, 'you'>) => ({ ...m, you: m.userId === viewerId })),
    revoked,
  };
}
