import type { Purchase } from '../purchases/choices';

/** A team purchase: the buyer's purchase with its team coupon's seats (api/src/admin/resources/commerce.ts). */
export interface BulkPurchase extends Purchase {
  bulkCouponId: string;
  seatsTotal: number;
  seatsUsed: number;
  /** The code in the team's invite link (a uuid the owner can replace); older answers may lack it. */
  inviteCode?: string | null;
}

export const seatsFree = (team: Pick<BulkPurchase, 'seatsTotal' | 'seatsUsed'>) => Math.max(0, team.seatsTotal - team.seatsUsed);

/** Statuses in which a team's seats grant access and its invite link works (api/src/commerce/teams.ts). */
export const ACTIVE_STATUSES: readonly string[] = ['Valid', 'Restricted'];

/**
 * The storefront's invite page for a team (api/src/commerce/teams.ts: `/invites/:inviteCode` on the public URL; a
 * team made before invite codes keeps its coupon's id as its code, the fallback when the code is absent); the
 * console is served from the same origin as the storefront. Replacing the link changes the code.
 */
export const inviteUrl = (team: Pick<BulkPurchase, 'bulkCouponId' | 'inviteCode'>) =>
  new URL(`/invites/${encodeURIComponent(team.inviteCode || team.bulkCouponId)}`, window.location.origin).toString();
