import { z } from 'zod';
import { BillingDetails } from '../schemas';

/**
 * Buying a course in instalments (and its quote): which course (its plan is the one it offers now), a coupon or the
 * regional price, and where the buyer is billed (each instalment's tax follows it, as at checkout).
 */
export const BuyPaymentPlanBody = z.strictObject({
  productId: z.uuid('must be a product id'),
  /** A coupon for some instalments or all of them, as its duration says. */
  coupon: z.string().trim().min(1).max(64).optional(),
  /** The detected country's regional price (the purchase is then Restricted to it). */
  ppp: z.boolean().default(false),
  billing: BillingDetails.optional(),
});

/** A subscription's plan as the learner's list shows it: none for a membership. */
export interface InstalmentsView {
  kind: 'membership' | 'payment-plan';
  /** A payment plan's instalments paid so far and in all (null for a membership). */
  instalmentsPaid: number | null;
  instalments: number | null;
}

/** A payment plan as the console sees it (the `payment-plans` resource: the row, every column). */
export interface PaymentPlanRecord {
  id: string;
  productId: string;
  status: 'active' | 'archived';
  instalments: number;
  instalmentAmount: number;
  currency: string;
  createdAt: Date;
  updatedAt: Date;
}
