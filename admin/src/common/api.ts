import type * as AdminCommerce from '@contract/admin/schemas/commerce';
import type * as Commerce from '@contract/commerce/schemas';
import type * as Learning from '@contract/learning/schemas';
import type { DataAnswer, ListAnswer, Wire } from '@contract/shared/wire';
import { httpClient } from '../dataProvider';

/** POST /api/admin/coupons/generate (api/src/commerce/coupon-generator.ts). */
export type GenerateCouponsInput = AdminCommerce.GenerateCouponsRequest;
export type GeneratedCoupon = Wire<AdminCommerce.GeneratedCoupon>;

export async function generateCoupons(input: GenerateCouponsInput): Promise<GeneratedCoupon[]> {
  const { json } = await httpClient('/api/admin/coupons/generate', { method: 'POST', body: JSON.stringify(input) });
  return (json as ListAnswer<GeneratedCoupon>).data;
}

/** POST /api/admin/purchases/:id/refund (api/src/commerce/purchase-action-routes.ts): no amount refunds all that is left. */
type RefundInput = Commerce.RefundRequest;
type RefundResult = Commerce.RefundResult;

export async function refundPurchase(purchaseId: string, input: RefundInput): Promise<RefundResult> {
  const { json } = await httpClient(`/api/admin/purchases/${encodeURIComponent(purchaseId)}/refund`, {
    method: 'POST',
    body: JSON.stringify(input),
  });
  return (json as DataAnswer<RefundResult>).data;
}

/** POST /api/admin/purchases/:id/ban (admins only): ends the purchase's access for good. */
export async function banPurchase(purchaseId: string, reason: string): Promise<Commerce.BanResult> {
  const { json } = await httpClient(`/api/admin/purchases/${encodeURIComponent(purchaseId)}/ban`, {
    method: 'POST',
    body: JSON.stringify({ reason }),
  });
  return (json as DataAnswer<Commerce.BanResult>).data;
}

/** Drops empty values, so a create request leaves optional fields to the API's defaults. */
export function withoutEmpty<T extends Record<string, unknown>>(data: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(data).filter(([, value]) => value !== null && value !== undefined && value !== ''),
  ) as Partial<T>;
}

/** A team as the API answers its actions (api/src/commerce/teams.ts). */
type TeamView = Wire<Commerce.TeamView>;

/** A transfer as the API answers its actions (api/src/commerce/transfers.ts). */
type TransferView = Wire<Commerce.TransferView>;

/**
 * DELETE /api/admin/bulk-purchases/:teamId/members/:memberPurchaseId (support and admins): the member's seat
 * purchase ends (they lose access, keep their progress) and the seat is free again. A member other than the buyer
 * is emailed, and the invite link refuses them until the team's owner lets them back in.
 */
export async function revokeSeat(teamPurchaseId: string, memberPurchaseId: string): Promise<TeamView> {
  const { json } = await httpClient(
    `/api/admin/bulk-purchases/${encodeURIComponent(teamPurchaseId)}/members/${encodeURIComponent(memberPurchaseId)}`,
    {
      method: 'DELETE',
    },
  );
  return (json as DataAnswer<TeamView>).data;
}

/** POST /api/admin/purchase-user-transfers/:id/cancel: an INITIATED or VERIFIED transfer; answers the fresh AVAILABLE one. */
export async function cancelTransfer(transferId: string): Promise<TransferView> {
  const { json } = await httpClient(`/api/admin/purchase-user-transfers/${encodeURIComponent(transferId)}/cancel`, {
    method: 'POST',
    body: '{}',
  });
  return (json as DataAnswer<TransferView>).data;
}

/** POST /api/admin/purchases/:id/move: gives an individual purchase to another email at once (a COMPLETED transfer). */
export async function movePurchase(purchaseId: string, email: string): Promise<TransferView> {
  const { json } = await httpClient(`/api/admin/purchases/${encodeURIComponent(purchaseId)}/move`, {
    method: 'POST',
    body: JSON.stringify({ email }),
  });
  return (json as DataAnswer<TransferView>).data;
}

/** A comment as the moderation actions answer it (api/src/learning/comments.ts). */
type ModeratedComment = Wire<Learning.CommentRecord>;

/**
 * POST /api/admin/comments/:id/hide (support and admins): learners no longer see the comment; its author still does,
 * with the reason. No reason is sent when none was given.
 */
export async function hideComment(commentId: string, reason?: string): Promise<ModeratedComment> {
  const { json } = await httpClient(`/api/admin/comments/${encodeURIComponent(commentId)}/hide`, {
    method: 'POST',
    body: JSON.stringify(reason ? { reason } : {}),
  });
  return (json as DataAnswer<ModeratedComment>).data;
}

/** POST /api/admin/comments/:id/unhide (support and admins): everyone who may open the lesson sees it again. */
export async function unhideComment(commentId: string): Promise<ModeratedComment> {
  const { json } = await httpClient(`/api/admin/comments/${encodeURIComponent(commentId)}/unhide`, {
    method: 'POST',
    body: '{}',
  });
  return (json as DataAnswer<ModeratedComment>).data;
}
