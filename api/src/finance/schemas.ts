import { z } from 'zod';
import type { DisputeStatus } from '../shared/dispute-status';
import { SUM_PERIODS, type ExportKind, type RecipientType } from '../shared/finance';
import type { RefundReason } from '../shared/refund-reasons';

/** A period of whole days, both ends included, with the bucket the figures are summed in. */
export const PeriodQuery = z
  .object({
    from: z.iso.date('must be a date (YYYY-MM-DD)'),
    to: z.iso.date('must be a date (YYYY-MM-DD)'),
    period: z.enum(SUM_PERIODS).default('month'),
  })
  .refine((q) => q.from <= q.to, { message: 'must not be after "to"', path: ['from'] });
export type PeriodQuery = z.infer<typeof PeriodQuery>;

const MAX_SUMMARY_DAYS = 366;

/** The ledger's charts: a period in one currency (by default the one sold most in it), at most a year and a day. */
export const SummaryQuery = PeriodQuery.and(
  z.object({
    currency: z
      .string()
      .regex(/^[a-z]{3}$/, 'must be a currency code such as usd')
      .optional(),
  }),
).refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < MAX_SUMMARY_DAYS, {
  message: `a chart covers at most ${MAX_SUMMARY_DAYS} days`,
  path: ['to'],
});

const MAX_REPORT_DAYS = 366;

/** A report's period: whole UTC days, both ends included, at most a year and a day. */
export const ReportPeriod = z
  .object({
    from: z.iso.date('must be a date (YYYY-MM-DD)'),
    to: z.iso.date('must be a date (YYYY-MM-DD)'),
  })
  .refine((q) => q.from <= q.to, { message: 'must not be after "to"', path: ['from'] })
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < MAX_REPORT_DAYS, {
    message: `a report covers at most ${MAX_REPORT_DAYS} days`,
    path: ['to'],
  });
export type ReportPeriod = z.infer<typeof ReportPeriod>;

/** GET /api/admin/reports/refunds and /disputes: a period, in one currency (amounts in two do not add up). */
export const ReportQuery = ReportPeriod.and(
  z.object({
    currency: z
      .string()
      .regex(/^[a-z]{3}$/, 'must be a currency code such as usd')
      .default('usd'),
  }),
);
export type ReportQuery = z.infer<typeof ReportQuery>;

const MAX_TAX_PERIOD_DAYS = 366;

/**
 * The tax report's period: from one day up to another, which is not in it (`from=2026-10-01&to=2027-01-01` is the
 * fourth quarter), as returns are filed; at most a year.
 */
export const TaxPeriod = z
  .object({
    from: z.iso.date('must be a date (YYYY-MM-DD)'),
    to: z.iso.date('must be a date (YYYY-MM-DD)'),
  })
  .refine((q) => q.from < q.to, { message: 'must be before "to" (the period ends the day before it)', path: ['from'] })
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 <= MAX_TAX_PERIOD_DAYS, {
    message: `a tax report covers at most ${MAX_TAX_PERIOD_DAYS} days`,
    path: ['to'],
  });
export type TaxPeriod = z.infer<typeof TaxPeriod>;

/** GET /api/admin/finance/tax-summary: a tax period, in one currency (by default the one with the most tax). */
export const TaxSummaryQuery = TaxPeriod.and(
  z.object({
    currency: z
      .string()
      .regex(/^[a-z]{3}$/, 'must be a currency code such as eur')
      .optional(),
  }),
);
export type TaxSummaryQuery = z.infer<typeof TaxSummaryQuery>;

// ─── Answers ───────────────────────────────────────────────────────────────────────────────────────────────────────
// What the finance endpoints answer; the console reads them as `Wire<…>` (api/src/shared/wire.ts).

/** Sales, refunds and disputes of the split ledger, in cents: refunds and disputes are negative, sales net of fees. */
export interface LedgerAmounts {
  sales: number;
  refunds: number;
  disputes: number;
  total: number;
}

export type { ExportKind, RecipientType };

/** GET /api/admin/finance/summary: one period of whole UTC days in one currency; the ledger's currencies listed. */
export interface FinanceSummaryAnswer {
  from: string;
  to: string;
  currency: string;
  currencies: string[];
  totals: LedgerAmounts;
  /** Courses staff gave in the period, in this currency's products (comps): a count, never part of the amounts. */
  comps: number;
  days: (LedgerAmounts & { day: string })[];
  products: (LedgerAmounts & { productId: string; name: string })[];
  recipients: (LedgerAmounts & {
    type: RecipientType;
    userId: string | null;
    email: string | null;
    name: string | null;
  })[];
}

/** A product's revenue split as the console sees it (the `product-revenue-splits` resource). */
export interface RevenueSplitRecord {
  id: string;
  productId: string;
  type: RecipientType;
  /** 0–1, four decimals. */
  percent: number;
  /** Null for the platform. */
  userId: string | null;
  createdAt: Date;
}

/** How many and how much (integer cents). */
export interface CountAndAmount {
  count: number;
  amountCents: number;
}

/**
 * GET /api/admin/reports/refunds: the refunds that went through in a period (each partial refund counts as one), by
 * reason and by product; `reason` null is a refund made before reasons were recorded.
 */
export interface RefundReportAnswer {
  from: string;
  to: string;
  currency: string;
  /** The currencies refunds were made in during the period. */
  currencies: string[];
  total: CountAndAmount;
  byReason: (CountAndAmount & { reason: RefundReason | null; label: string })[];
  /** `productId` null: a charge no purchase is tied to. */
  byProduct: (CountAndAmount & { productId: string | null; name: string })[];
}

/**
 * GET /api/admin/reports/disputes: what is at stake now (open disputes, whose evidence is overdue or due within
 * three days) and the disputes opened in the period, per week (from its Monday) by where they stand now.
 */
export interface DisputeReportAnswer {
  from: string;
  to: string;
  currency: string;
  open: CountAndAmount;
  overdue: number;
  dueSoon: number;
  weeks: ({ week: string } & Record<DisputeStatus, number>)[];
}

/** Tax in the currency's minor unit: collected on invoices, given back by credit notes, and what is left. */
export interface TaxAmounts {
  collected: number;
  refunded: number;
  net: number;
}

/**
 * GET /api/admin/finance/tax-summary: the tax of the invoices and credit notes issued in a period (`to` not in it), in
 * one currency, per month (every month of the period, empty ones too), per country (the most net tax first), and
 * per month and country; `currencies` lists those with tax in the period.
 */
export interface TaxSummaryAnswer {
  from: string;
  to: string;
  currency: string;
  currencies: string[];
  totals: TaxAmounts;
  months: (TaxAmounts & { month: string })[];
  countries: (TaxAmounts & { country: string })[];
  byMonthAndCountry: (TaxAmounts & { month: string; country: string })[];
}
