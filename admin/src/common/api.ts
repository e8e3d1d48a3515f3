import { httpClient } from '../dataProvider';

/** GET /api/admin/dashboard (api/src/admin/dashboard.ts): money in cents, days in UTC. */
export interface DashboardDay {
  day: string;
  gross: number;
  refunded: number;
  purchases: number;
}

export interface DashboardSummary {
  days: number;
  since: string;
  revenueByDay: DashboardDay[];
  totals: { gross: number; refunded: number; net: number; purchases: number; refunds: number; activeLearners: number };
  topProducts: { productId: string; name: string; purchases: number; revenue: number }[];
}

export async function fetchDashboard(days: number): Promise<DashboardSummary> {
  const { json } = await httpClient(`/api/admin/dashboard?days=${encodeURIComponent(days)}`);
  return json as DashboardSummary;
}

/** POST /api/admin/coupons/generate (api/src/commerce/coupon-generator.ts). */
export interface GenerateCouponsInput {
  count: number;
  prefix?: string;
  percentageDiscount: number;
  maxUses?: number;
  expires?: string | null;
  restrictedToProductId?: string | null;
}

export interface GeneratedCoupon {
  id: string;
  code: string | null;
  percentageDiscount: number;
  maxUses: number;
  expires: string | null;
  restrictedToProductId: string | null;
}

export async function generateCoupons(input: GenerateCouponsInput): Promise<GeneratedCoupon[]> {
  const { json } = await httpClient('/api/admin/coupons/generate', { method: 'POST', body: JSON.stringify(input) });
  return (json as { data: GeneratedCoupon[] }).data;
}

/** POST /api/admin/purchases/:id/refund (api/src/commerce/purchase-action-routes.ts): no amount refunds all that is left. */
export interface RefundInput {
  /** Cents; absent: everything left on the charge. */
  amount?: number;
  reason: string;
}

export interface RefundResult {
  /** The charge's total refunded so far, in cents. */
  refundAmount: number;
  /** Whether the charge is now refunded in full (the purchase is then Refunded). */
  full: boolean;
  /** What this refund gave back, in cents. */
  amount: number;
}

export async function refundPurchase(purchaseId: string, input: RefundInput): Promise<RefundResult> {
  const { json } = await httpClient(`/api/admin/purchases/${encodeURIComponent(purchaseId)}/refund`, { method: 'POST', body: JSON.stringify(input) });
  return (json as { data: RefundResult }).data;
}

/** POST /api/admin/purchases/:id/ban (admins only): ends the purchase's access for good. */
export async function banPurchase(purchaseId: string, reason: string): Promise<{ status: 'Banned' }> {
  const { json } = await httpClient(`/api/admin/purchases/${encodeURIComponent(purchaseId)}/ban`, { method: 'POST', body: JSON.stringify({ reason }) });
  return (json as { data: { status: 'Banned' } }).data;
}

/** Drops empty values, so a create request leaves optional fields to the API's defaults. */
export function withoutEmpty<T extends Record<string, unknown>>(data: T): Partial<T> {
  return Object.fromEntries(Object.entries(data).filter(([, value]) => value !== null && value !== undefined && value !== '')) as Partial<T>;
}

/** A team as the API answers its actions (api/src/commerce/teams.ts). */
export interface TeamView {
  purchaseId: string;
  product: { id: string; name: string; slug: string | null };
  status: string;
  seats: { total: number; used: number; free: number };
  inviteUrl: string;
  ownerHasSeat: boolean;
  members: { purchaseId: string; userId: string; email: string; name: string | null; joinedAt: string }[];
  /** People removed from the team: the invite link refuses them until the owner lets them back in. */
  revoked: { userId: string; email: string; name: string | null; revokedAt: string }[];
}

/** A transfer as the API answers its actions (api/src/commerce/transfers.ts). */
export interface TransferView {
  id: string;
  state: string;
  purchaseId: string;
  product: { id: string; name: string };
  recipientEmail: string | null;
  expiresAt: string;
  createdAt: string;
  confirmedAt: string | null;
  completedAt: string | null;
}

/**
 * DELETE /api/admin/bulk-purchases/:teamId/members/:memberPurchaseId (support and admins): the member's seat
 * purchase ends (they lose access, keep their progress) and the seat is free again. A member other than the buyer
 * is emailed, and the invite link refuses them until the team's owner lets them back in.
 */
export async function revokeSeat(teamPurchaseId: string, memberPurchaseId: string): Promise<TeamView> {
  const { json } = await httpClient(`/api/admin/bulk-purchases/${encodeURIComponent(teamPurchaseId)}/members/${encodeURIComponent(memberPurchaseId)}`, {
    method: 'DELETE',
  });
  return (json as { data: TeamView }).data;
}

/** POST /api/admin/purchase-user-transfers/:id/cancel: an INITIATED or VERIFIED transfer; answers the fresh AVAILABLE one. */
export async function cancelTransfer(transferId: string): Promise<TransferView> {
  const { json } = await httpClient(`/api/admin/purchase-user-transfers/${encodeURIComponent(transferId)}/cancel`, { method: 'POST', body: '{}' });
  return (json as { data: TransferView }).data;
}

/** POST /api/admin/purchases/:id/move: gives an individual purchase to another email at once (a COMPLETED transfer). */
export async function movePurchase(purchaseId: string, email: string): Promise<TransferView> {
  const { json } = await httpClient(`/api/admin/purchases/${encodeURIComponent(purchaseId)}/move`, { method: 'POST', body: JSON.stringify({ email }) });
  return (json as { data: TransferView }).data;
}

/** A comment as the moderation actions answer it (api/src/learning/comments.ts). */
export interface ModeratedComment {
  id: string;
  hiddenAt: string | null;
  hiddenById: string | null;
  hiddenReason: string | null;
}

/**
 * POST /api/admin/comments/:id/hide (support and admins): learners no longer see the comment; its author still does,
 * with the reason. No reason is sent when none was given.
 */
export async function hideComment(commentId: string, reason?: string): Promise<ModeratedComment> {
  const { json } = await httpClient(`/api/admin/comments/${encodeURIComponent(commentId)}/hide`, {
    method: 'POST',
    body: JSON.stringify(reason ? { reason } : {}),
  });
  return (json as { data: ModeratedComment }).data;
}

/** POST /api/admin/comments/:id/unhide (support and admins): everyone who may open the lesson sees it again. */
export async function unhideComment(commentId: string): Promise<ModeratedComment> {
  const { json } = await httpClient(`/api/admin/comments/${encodeURIComponent(commentId)}/unhide`, { method: 'POST', body: '{}' });
  return (json as { data: ModeratedComment }).data;
}
