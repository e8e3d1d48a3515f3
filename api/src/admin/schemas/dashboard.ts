import { z } from 'zod';

/** The dashboard's period: the last N days. */
export const DashboardQuery = z.object({ days: z.coerce.number().int().min(7).max(365).default(30) });

// ─── Answers ───────────────────────────────────────────────────────────────────────────────────────────────────────
// What the console's extra endpoints answer; the console reads them as `Wire<…>` (api/src/shared/wire.ts).

export interface DashboardDay {
  day: string; // YYYY-MM-DD, UTC
  gross: number; // cents charged that day
  fees: number; // the provider's fees on those charges
  refunded: number; // cents refunded that day (on any charge), in part or in full
  disputed: number; // cents taken back by disputes that day, less disputes won
  net: number; // the split ledger's total that day: what the Finance page shows
  refunds: number; // refunds made that day
  purchases: number; // paid purchases (seats taken from a team and free purchases are not sales)
}

/** GET /api/admin/dashboard: money in cents, days in UTC. */
export interface Dashboard {
  days: number;
  since: string;
  revenueByDay: DashboardDay[];
  totals: {
    gross: number;
    fees: number;
    refunded: number;
    disputed: number;
    net: number;
    purchases: number;
    refunds: number;
    activeLearners: number;
  };
  /** By the ledger's net in the period, then paid purchases. */
  topProducts: { productId: string; name: string; purchases: number; revenue: number }[];
}
