import { deleteJson, getJson, postJson } from './client';

export interface TeamMember {
  /** The member's seat purchase: what revoking removes. */
  purchaseId: string;
  userId: string;
  email: string;
  name: string | null;
  joinedAt: string;
  /** The member is the signed-in owner. */
  you: boolean;
}

/** Someone the owner removed from the team: they cannot take a seat through the invite link until let back in. */
export interface RevokedMember {
  userId: string;
  email: string;
  name: string | null;
  revokedAt: string;
}

/** A team purchase as its owner manages it (DOMAIN §7). */
export interface TeamView {
  purchaseId: string;
  product: { id: string; name: string; slug: string | null };
  status: string;
  seats: { total: number; used: number; free: number };
  inviteUrl: string;
  /** The owner holds a seat themselves (the team purchase alone grants no access). */
  ownerHasSeat: boolean;
  members: TeamMember[];
  /** People the owner removed, newest first: the invite link refuses them (`seat-revoked`) until readmitted. */
  revoked: RevokedMember[];
}

/** What an invite link shows before anyone signs in. */
export interface Invite {
  product: { id: string; name: string; slug: string | null };
  ownerName: string | null;
  active: boolean;
  seatsFree: number;
}

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
export function redeemInvite(code: string): Promise<{ purchaseId: string; productId: string }> {
  return postJson(`${invitePath(code)}/redeem`);
}
