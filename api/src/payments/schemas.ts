import { z } from 'zod';
import type { ActiveStatus } from '../shared/active-status';

/** The built-in test provider's checkout page and its Pay / Cancel buttons. */
export const TestCheckoutIdentifier = z.object({
  identifier: z.string().regex(/^cs_test_[0-9a-f]{24}$/, 'is not a test checkout'),
});

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
