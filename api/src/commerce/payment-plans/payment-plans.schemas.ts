import { z } from 'zod';

/** Buying a course in instalments: which course (its plan is the one it offers now). */
export const BuyPaymentPlanBody = z.strictObject({ productId: z.uuid('must be a product id') });

/** A subscription's plan as the learner's list shows it: none for a membership. */
export interface InstalmentsView {
  kind: 'membership' | 'payment-plan';
  /** A payment plan's instalments paid so far and in all (null for a membership). */
  instalmentsPaid: number | null;
  instalments: number | null;
}
