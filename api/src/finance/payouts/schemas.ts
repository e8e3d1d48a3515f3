import { z } from 'zod';

/** A manual payout marked paid: the reference of the money sent by hand (a bank transfer's id). */
export const MarkPaidBody = z
  .object({ reference: z.string().trim().min(1, 'say how it was paid (a bank transfer id)').max(200) })
  .strict();

/** One recipient's money in one currency, in its minor unit. */
export interface PayoutBalance {
  recipientId: string;
  recipientName: string | null;
  recipientEmail: string;
  currency: string;
  /** Positive split lines. */
  earned: number;
  /** Negative adjustment lines (refunds, lost disputes), as a positive number. */
  clawedBack: number;
  /** Payouts sent or marked paid. */
  paid: number;
  /** Payouts made but not yet paid (pending, or failed and waiting for the next run): still in the balance. */
  inPayouts: number;
  /** earned − clawedBack − paid; negative when more came back than is left to pay (carried). */
  balance: number;
  /** What a run would pay now: lines past the holding period no payout covers yet (paid only at the minimum). */
  payable: number;
}

export interface PayoutRunAnswer {
  runId: string;
  /** Payouts this run made. */
  created: number;
  /** Stripe payouts sent now (this run's and earlier runs' unsent ones). */
  sent: number;
  failed: number;
}
