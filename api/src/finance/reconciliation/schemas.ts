import { z } from 'zod';
import { DAY_MS } from '../../shared/durations';

/** A period of the processor's time, [from, to); the last 30 days when not given. At most a year. */
export const PeriodQuery = z
  .object({ from: z.coerce.date().optional(), to: z.coerce.date().optional() })
  .transform(({ from, to }, ctx) => {
    const end = to ?? new Date();
    const start = from ?? new Date(end.getTime() - 30 * DAY_MS);
    if (start >= end) ctx.addIssue({ code: 'custom', path: ['from'], message: 'from must be before to' });
    if (end.getTime() - start.getTime() > 366 * DAY_MS)
      ctx.addIssue({ code: 'custom', path: ['from'], message: 'a period is at most a year' });
    return { from: start, to: end };
  });

/** Why a transaction or book entry is not matched to the cent (docs/domain.md §20). */
export type ReconciliationReason =
  | 'fee-changed'
  | 'fee-not-booked'
  | 'amount-changed'
  | 'other-currency'
  | 'missed-webhook'
  | 'unknown-charge'
  | 'refund-at-processor'
  | 'missed-dispute'
  | 'missed-refund-failure'
  | 'missed-dispute-close'
  | 'unknown-transfer'
  | 'processor-fee'
  | 'other'
  | 'not-at-processor';

/** One currency's share of a tally: how many, and their cents (for differences, processor − books, net). */
export interface CurrencyTally {
  currency: string;
  count: number;
  amount: number;
}

export interface Tally {
  count: number;
  byCurrency: CurrencyTally[];
}

/** A processor transaction that is not matched to the cent, with what the books say of it. */
export interface ProcessorRow {
  id: string;
  identifier: string;
  kind: string;
  sourceIdentifier: string | null;
  chargeIdentifier: string | null;
  amount: number;
  fee: number;
  currency: string;
  createdAt: Date;
  payoutIdentifier: string | null;
  /** The matched book entry, in the books' own currency (which may not be the processor's). */
  book: { kind: string; id: string; amount: number; fee: number; currency: string } | null;
  reason: ReconciliationReason;
  /** Recovered through the missed event's own code by `POST /reconciliation/:id/recover`. */
  recoverable: boolean;
}

/** A book entry no processor transaction is matched to. */
export interface BookRow {
  kind: string;
  id: string;
  identifier: string | null;
  chargeIdentifier: string | null;
  amount: number;
  fee: number;
  currency: string;
  at: Date;
  reason: 'not-at-processor';
}

export interface ReconciliationAnswer {
  from: Date;
  to: Date;
  matched: Tally;
  /** Differences: counted all, their cents (processor − books, net) only of rows in one currency. */
  difference: Tally & { rows: ProcessorRow[] };
  /**
   * Matched rows the books keep in another currency than the processor settled (their difference is never subtracted
   * across currencies): counted, with the processor's net in its own currency.
   */
  otherCurrency: Tally;
  unmatchedAtProcessor: Tally & { rows: ProcessorRow[] };
  unmatchedInBooks: Tally & { rows: BookRow[] };
}

/** One processor payout to the bank (null: transactions not paid out yet) and how its transactions match. */
export interface PayoutReconciliation {
  id: string;
  payout: {
    identifier: string;
    amount: number;
    currency: string;
    status: string;
    createdAt: Date;
    arrivalOn: Date | null;
  } | null;
  /** The books' net of its matched transactions plus the processor's net of the others: what it should carry. */
  expectedAmount: number;
  /** The payout less what it should carry by the books (0 when it agrees; 0 for what is not paid out yet). */
  offBy: number;
  matched: number;
  differences: number;
  unmatchedAtProcessor: number;
  rows: ProcessorRow[];
}

/** What an import brought: the processor's payouts and transactions read, and how many were newly matched. */
export interface ImportAnswer {
  payouts: number;
  transactions: number;
  matched: number;
}
