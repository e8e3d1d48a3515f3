import { z } from 'zod';
import { SUM_PERIODS, type ExportKind, type RecipientType } from '../shared/finance';

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

/** The ledger's charts: a period in one currency, at most a year and a day. */
export const SummaryQuery = PeriodQuery.and(
  z.object({
    currency: z
      .string()
      .regex(/^[a-z]{3}$/, 'must be a currency code such as usd')
      .default('usd'),
  }),
).refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < MAX_SUMMARY_DAYS, {
  message: `a chart covers at most ${MAX_SUMMARY_DAYS} days`,
  path: ['to'],
});

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
