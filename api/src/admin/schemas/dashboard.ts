import { z } from 'zod';

/** The dashboard's period: the last N days. */
export const DashboardQuery = z.object({ days: z.coerce.number().int().min(7).max(365).default(30) });

// ─── Answers ───────────────────────────────────────────────────────────────────────────────────────────────────────
// What the console's extra endpoints answer; the console reads them as `Wire<…>` (api/src/shared/wire.ts).

export interface DashboardDay {
  day: string; // YYYY-MM-DD, UTC
  gross: number; // cents charged that day
  refunded: number; // cents refunded on those charges
  purchases: number;
}

/** GET /api/admin/dashboard: money in cents, days in UTC. */
export interface Dashboard {
  days: number;
  since: string;
  revenueByDay: DashboardDay[];
  totals: { gross: number; refunded: number; net: number; purchases: number; refunds: number; activeLearners: number };
  topProducts: { productId: string; name: string; purchases: number; revenue: number }[];
}
