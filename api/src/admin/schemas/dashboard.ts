import { z } from 'zod';
import { Currency } from './fields';

/**
 * The dashboard's period, the last N days, and the currency of its money (amounts in two currencies do not add up):
 * by default the one with the most sales in the period. Support's view has no money, so no currency.
 */
export const DashboardQuery = z.object({
  days: z.coerce.number().int().min(7).max(365).default(30),
  currency: Currency.optional(),
});
export type DashboardQuery = z.infer<typeof DashboardQuery>;

// ─── Answers ───────────────────────────────────────────────────────────────────────────────────────────────────────
// What the console's extra endpoints answer; the console reads them as `Wire<…>` (api/src/shared/wire.ts).

/** A day of the finance view, in its one currency (amounts in its minor unit: cents, whole yen). */
export interface DashboardDay {
  day: string; // YYYY-MM-DD, UTC
  gross: number; // charged that day, tax included
  tax: number; // the tax in those charges: collected for tax offices, never revenue
  fees: number; // the provider's fees on those charges
  refunded: number; // refunded that day (on any charge), in part or in full
  disputed: number; // taken back by disputes that day, less disputes won
  net: number; // the split ledger's total that day: what the Finance page shows
  refunds: number; // refunds made that day
  purchases: number; // paid purchases in this currency (seats taken from a team and free purchases are not sales)
}

/**
 * GET /api/admin/dashboard for finance and admins: money in one currency's minor unit (its sales, refunds, ledger and
 * products), days in UTC; the period's currencies listed, to switch between.
 */
export interface FinanceDashboard {
  view: 'finance';
  days: number;
  since: string;
  currency: string;
  /** Every currency charged, refunded or sold in during the period, alphabetically. */
  currencies: string[];
  revenueByDay: DashboardDay[];
  totals: {
    gross: number;
    tax: number;
    fees: number;
    refunded: number;
    disputed: number;
    net: number;
    purchases: number;
    refunds: number;
    activeLearners: number;
  };
  /** By the ledger's net in the period, then paid purchases, both in this currency. */
  topProducts: { productId: string; name: string; purchases: number; revenue: number }[];
}

/** A day of support's dashboard: what happened, counted, without money. */
export interface SupportDashboardDay {
  day: string; // YYYY-MM-DD, UTC
  purchases: number; // paid purchases, as the finance view counts them
  refunds: number; // refunds made that day
}

/**
 * GET /api/admin/dashboard for support (and anyone else without the Finance page): the work, counted, and no finance
 * figure (no revenue, fees, refunds' or disputes' amounts, splits).
 */
export interface SupportDashboard {
  view: 'support';
  days: number;
  since: string;
  activityByDay: SupportDashboardDay[];
  totals: {
    purchases: number; // paid purchases in the period (sales, counted)
    refunds: number; // refunds made in the period
    openDisputes: number; // disputes still open now, whenever they were opened
    failedEmails: number; // emails in the outbox that failed and wait for a retry now
    activeLearners: number;
  };
  /** By paid purchases in the period. */
  topProducts: { productId: string; name: string; purchases: number }[];
}

export type Dashboard = FinanceDashboard | SupportDashboard;
