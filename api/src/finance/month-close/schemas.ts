import { z } from 'zod';
import type { RecipientType } from '../../shared/finance';

const Month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month (YYYY-MM)');

/** POST /api/admin/month-closes: the month to close. */
export const MonthCloseBody = z.object({ month: Month }).strict();

/** `/month-closes/:id/…`: the month (YYYY-MM), the console's id of a closed month. */
export const MonthParam = z.object({ id: Month });

/** Tax per country in one currency: collected on invoices, given back by credit notes, and what is left. */
export interface TaxByCountry {
  country: string;
  collected: number;
  refunded: number;
  net: number;
}

/** One recipient's share of the month's ledger (refunds and disputes negative, total net of them). */
export interface SplitFigures {
  type: RecipientType;
  userId: string | null;
  email: string | null;
  name: string | null;
  sales: number;
  refunds: number;
  disputes: number;
  total: number;
}

/**
 * A month's figures in one currency, in its minor unit, frozen when the month is closed: charges (gross, the tax
 * inside them, the provider's fees), the split ledger (sales net of tax and fees, refunds and disputes negative, net),
 * tax as filed (docs/domain.md §18.7), payouts paid, and ledger lines booked in it that belong to earlier months.
 */
export interface CurrencyFigures {
  currency: string;
  gross: number;
  tax: number;
  fees: number;
  sales: number;
  refunds: number;
  disputes: number;
  net: number;
  taxCollected: number;
  taxRefunded: number;
  taxNet: number;
  taxByCountry: TaxByCountry[];
  splits: SplitFigures[];
  payoutsPaid: number;
  payouts: number;
  /** Ledger lines of earlier, closed months booked on this month's first instant (already inside `net`). */
  lateFromClosedMonths: number;
}

/** GET /api/admin/month-closes/next: the month a close would freeze next, and its figures as they are now. */
export interface NextMonthCloseAnswer {
  /** null: no money was ever recorded, nothing to close. */
  month: string | null;
  /** Whether the month has ended (school time: UTC), so it can be closed now. */
  ended: boolean;
  figures: CurrencyFigures[];
}

/** A closed month as the console lists it (the `month-closes` resource). */
export interface MonthCloseRecord {
  id: string;
  month: string;
  closedAt: string;
  closedById: string | null;
  closedByEmail: string | null;
  figures: CurrencyFigures[];
}
