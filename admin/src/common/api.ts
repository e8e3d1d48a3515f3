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

/** Drops empty values, so a create request leaves optional fields to the API's defaults. */
export function withoutEmpty<T extends Record<string, unknown>>(data: T): Partial<T> {
  return Object.fromEntries(Object.entries(data).filter(([, value]) => value !== null && value !== undefined && value !== '')) as Partial<T>;
}
