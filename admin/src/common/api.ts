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
