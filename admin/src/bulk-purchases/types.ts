import type { Purchase } from '../purchases/choices';

/** A team purchase: the buyer's purchase with its team coupon's seats (api/src/admin/resources/commerce.ts). */
export interface BulkPurchase extends Purchase {
  bulkCouponId: string;
  seatsTotal: number;
  seatsUsed: number;
  inviteCode: string | null;
}

export const seatsFree = (team: Pick<BulkPurchase, 'seatsTotal' | 'seatsUsed'>) => Math.max(0, team.seatsTotal - team.seatsUsed);

/** Statuses in which a team's seats grant access and its invite link works (api/src/commerce/teams.ts). */
export const ACTIVE_STATUSES: readonly string[] = ['Valid', 'Restricted'];

/**
 * The storefront's invite page for a team (api/src/commerce/teams.ts: `/invites/:bulkCouponId` on the public
 * URL); the console is served from the same origin as the storefront.
 */
export const inviteUrl = (team: Pick<BulkPurchase, 'bulkCouponId'>) => new URL(`/invites/${team.bulkCouponId}`, window.location.origin).toString();
