import { z } from 'zod';
import type { RecipientType } from '../../shared/finance';
import type { PayoutMethod, PayoutStatus } from '../../shared/payouts';
import type { LedgerKind } from '../ledger';

/** A calendar month in UTC, as `2026-11`. */
const Month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month as YYYY-MM');

/** GET /api/store/earnings: the lines of one month (all when none), one page of them. */
export const EarningsQuery = z.strictObject({
  month: Month.optional(),
  page: z.coerce.number().int('must be a whole number').min(1).max(100_000).default(1),
});
export type EarningsQueryInput = z.output<typeof EarningsQuery>;

/** GET /api/store/earnings/statements/:month.csv and .pdf */
export const StatementParam = z.object({ month: Month });

// ─── Answers ───────────────────────────────────────────────────────────────────────────────────────────────────────
// Type-only below: the storefront reads these as Wire<…>.

/** The signed-in person's money in one currency (docs/domain.md §19.1), in its minor unit. */
export interface EarningsBalance {
  currency: string;
  /** Positive lines. */
  earned: number;
  /** Negative lines (refunds, lost disputes), as a positive number. */
  clawedBack: number;
  /** Payouts sent or marked paid. */
  paid: number;
  /** earned − clawedBack − paid. */
  balance: number;
  /** Payouts made and not yet paid. */
  inPayouts: number;
  /** What the next run would pay: lines past the holding period no payout covers yet. */
  payable: number;
  /** Lines still inside the holding period: balance − inPayouts − payable. */
  held: number;
}

/** One line of the ledger for this person, with the charge it belongs to. */
export interface EarningsLine {
  id: string;
  createdAt: Date;
  kind: LedgerKind;
  /** As what they were paid: owner or contributor. */
  recipientType: RecipientType;
  productId: string;
  productName: string;
  currency: string;
  /** The charge's gross, the tax inside it and the provider's fee (a refund's line shows its sale's charge). */
  gross: number;
  tax: number;
  fee: number;
  /** Their share in the product's splits as they stand now ("0.5000" is 50 %); null once they hold none. */
  percent: string | null;
  /** What the ledger wrote for them, signed. */
  amount: number;
}

/** Their lines of one product in one month and currency. */
export interface ProductMonth {
  month: string;
  productId: string;
  productName: string;
  currency: string;
  /** Sales (a charge's sale line each). */
  sales: number;
  earned: number;
  clawedBack: number;
  /** earned − clawedBack. */
  net: number;
}

export interface EarningsPayout {
  id: string;
  currency: string;
  amount: number;
  method: PayoutMethod;
  status: PayoutStatus;
  /** The transfer's id (Stripe's or the bank's) once paid. */
  reference: string | null;
  createdAt: Date;
  paidAt: Date | null;
}

/** GET /api/store/earnings */
export interface EarningsAnswer {
  /** Whether they are a recipient of any product's splits or ledger: anyone else gets this answer empty. */
  payee: boolean;
  holdDays: number;
  balances: EarningsBalance[];
  /** Newest month first. */
  months: ProductMonth[];
  lines: { month: string | null; page: number; pageSize: number; total: number; data: EarningsLine[] };
  /** Newest first. */
  payouts: EarningsPayout[];
  /** Months a statement has something to say for (a line or a payout), newest first. */
  statementMonths: string[];
}

/** A month's statement per currency: opening + net − paid out = closing. */
export interface StatementTotals {
  currency: string;
  opening: number;
  earned: number;
  clawedBack: number;
  paidOut: number;
  closing: number;
}

export interface Statement {
  month: string;
  payee: { name: string | null; email: string };
  lines: EarningsLine[];
  totals: StatementTotals[];
  /** Payouts paid in the month. */
  payouts: EarningsPayout[];
}
