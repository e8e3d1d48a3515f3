import type * as Commerce from '@contract/commerce/schemas';
import type { Wire } from '@contract/shared/wire';
import { deleteJson, getJson, postJson } from './client';

export type TeamMember = Wire<Commerce.TeamMember>;

/** Someone the owner removed from the team: they cannot take a seat through the invite link until let back in. */
export type RevokedMember = Wire<Commerce.RevokedMember>;

/** A team purchase as its owner manages it (docs/domain.md §7). */
export type TeamView = Wire<Commerce.TeamView>;

/** What an invite link shows before anyone signs in. */
export type Invite = Wire<Commerce.InviteAnswer>;

const teamPath = (purchaseId: string) => `/api/store/teams/${encodeURIComponent(purchaseId)}`;
/** An invite link's code (`/invites/:code`): replaced when the owner resets the link. */
const invitePath = (code: string) => `/api/store/invites/${encodeURIComponent(code)}`;

export function getTeam(purchaseId: string): Promise<TeamView> {
  return getJson(teamPath(purchaseId));
}

/** The owner takes one of their own seats. */
export function claimSeat(purchaseId: string): Promise<TeamView> {
  return postJson(`${teamPath(purchaseId)}/claim`);
}

/**
 * Frees a member's seat: they lose access (their progress stays), the seat can be taken by someone else, and they
 * are listed in `revoked` (emailed, and refused by the invite link until let back in).
 */
export function revokeSeat(purchaseId: string, memberPurchaseId: string): Promise<TeamView> {
  return deleteJson<TeamView>(`${teamPath(purchaseId)}/members/${encodeURIComponent(memberPurchaseId)}`);
}

/** A new invite link for the team; the old one stops working (it answers `coupon-not-found`). */
export function resetInviteLink(purchaseId: string): Promise<TeamView> {
  return postJson(`${teamPath(purchaseId)}/invite/reset`);
}

/** Lets a removed person back in: they may take a seat through the invite link again. */
export function readmit(purchaseId: string, userId: string): Promise<TeamView> {
  return postJson(`${teamPath(purchaseId)}/revoked/${encodeURIComponent(userId)}/readmit`);
}

export function getInvite(code: string): Promise<Invite> {
  return getJson(invitePath(code));
}

/** May answer 403 `seat-revoked` (the owner removed this person), `already-purchased`, `coupon-used-up`, … */
export function redeemInvite(code: string): Promise<Commerce.RedeemedSeat> {
  return postJson(`${invitePath(code)}/redeem`);
}
