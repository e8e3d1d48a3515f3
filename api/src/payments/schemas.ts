import { z } from 'zod';
import type { ActiveStatus } from '../shared/active-status';
import type { DisputeStatus } from '../shared/dispute-status';
import type { RefundReason } from '../shared/refund-reasons';

/** The built-in test provider's checkout page and its Pay / Cancel buttons. */
export const TestCheckoutIdentifier = z.object({
  identifier: z.string().regex(/^cs_test_[0-9a-f]{24}$/, 'is not a test checkout'),
});

/** The built-in test provider's settlement of a refund it held pending (what a card processor decides later). */
export const TestRefundSettlement = z.object({
  identifier: z.string().regex(/^re_test_[\w-]{1,200}$/, 'is not a test refund'),
  outcome: z.enum(['succeeded', 'failed']),
});

/** The built-in test provider's subscription page and its Subscribe / Cancel buttons. */
export const TestSubscriptionIdentifier = z.object({
  identifier: z.string().regex(/^sub_test_[0-9a-f]{24}$/, 'is not a test subscription'),
});

/** Renewing a subscription at the test provider now: our subscription's id, and whether the payment succeeds. */
export const TestRenewalParams = z.object({ id: z.uuid('must be a subscription id') });
export const TestRenewalBody = z.strictObject({ outcome: z.enum(['paid', 'failed']) });
/** A renewal asked again with the same key is the same renewal (at most 200 characters). */
export const TestRenewalKey = z.string().min(1).max(200).optional();

// ─── Answers ───────────────────────────────────────────────────────────────────────────────────────────────────────
// Type-only: the apps' typecheck reads this file, so no Node module here.

/** A charge at the payment provider as the console sees it (the `merchant-charges` resource: the row). */
export interface MerchantChargeRecord {
  id: string;
  identifier: string;
  merchantAccountId: string;
  status: ActiveStatus;
  amount: number;
  fee: number;
  net: number;
  refundAmount: number;
  currency: string;
  metadata: Record<string, unknown>;
  userId: string;
  merchantProductId: string;
  merchantCustomerId: string | null;
  createdAt: Date;
}

/** A refund as the console sees it (the `merchant-refunds` resource: the row). */
export interface MerchantRefundRecord {
  id: string;
  identifier: string | null;
  merchantAccountId: string;
  merchantChargeId: string;
  status: 'pending' | 'succeeded' | 'failed';
  amount: number;
  /** api/src/shared/refund-reasons.ts; null: made before reasons were recorded. */
  reasonCode: RefundReason | null;
  /** The staff's note. */
  reason: string | null;
  idempotencyKey: string;
  requestedById: string | null;
  createdAt: Date;
}

/**
 * A dispute as the console lists it (the `merchant-disputes` resource): the row, with its charge's currency and
 * buyer and the purchase the charge paid for.
 */
export interface MerchantDisputeRecord {
  id: string;
  identifier: string;
  merchantAccountId: string;
  merchantChargeId: string;
  amount: number;
  reason: string | null;
  status: DisputeStatus;
  /** The provider's deadline for evidence (Stripe's evidence_details.due_by). */
  evidenceDueBy: Date | null;
  createdAt: Date;
  closedAt: Date | null;
  currency: string;
  userId: string;
  purchaseId: string | null;
}
