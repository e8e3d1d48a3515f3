import type { TeamPurchaseRecord } from '@contract/commerce/schemas';
import type { Wire } from '@contract/shared/wire';

/** A team purchase: the buyer's purchase with its team coupon's seats (api/src/admin/resources/commerce.ts). */
export type TeamPurchase = Wire<TeamPurchaseRecord>;

export const seatsFree = (team: Pick<TeamPurchase, 'seatsTotal' | 'seatsUsed'>) =>
  Math.max(0, team.seatsTotal - team.seatsUsed);

/**
 * The storefront's invite page for a team (api/src/commerce/teams/teams.ts: `/invites/:inviteCode` on the public URL; a
 * team made before invite codes keeps its coupon's id as its code, the fallback when the code is absent); the
 * console is served from the same origin as the storefront. Replacing the link changes the code.
 */
export const inviteUrl = (team: Pick<TeamPurchase, 'bulkCouponId' | 'inviteCode'>) =>
  new URL(`/invites/${encodeURIComponent(team.inviteCode || team.bulkCouponId)}`, window.location.origin).toString();
