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
}

/** What an invite link shows before anyone signs in. */
export interface Invite {
  product: { id: string; name: string; slug: string | null };
  ownerName: string | null;
  active: boolean;
  seatsFree: number;
}

const teamPath = (purchaseId: string) => `/api/store/teams/${encodeURIComponent(purchaseId)}`;
const invitePath = (couponId: string) => `/api/store/invites/${encodeURIComponent(couponId)}`;

export function getTeam(purchaseId: string): Promise<TeamView> {
  return getJson(teamPath(purchaseId));
}

/** The owner takes one of their own seats. */
export function claimSeat(purchaseId: string): Promise<TeamView> {
  return postJson(`${teamPath(purchaseId)}/claim`);
}

/** Frees a member's seat: they lose access (their progress stays) and the seat can be taken again. */
export function revokeSeat(purchaseId: string, memberPurchaseId: string): Promise<TeamView> {
  return deleteJson<TeamView>(`${teamPath(purchaseId)}/members/${encodeURIComponent(memberPurchaseId)}`);
}

export function getInvite(couponId: string): Promise<Invite> {
  return getJson(invitePath(couponId));
}

export function redeemInvite(couponId: string): Promise<{ purchaseId: string; productId: string }> {
  return postJson(`${invitePath(couponId)}/redeem`);
}
