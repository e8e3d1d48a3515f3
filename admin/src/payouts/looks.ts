import type { PayoutStatus } from '../../../api/src/shared/payouts';
import { choicesOf, type ChipLook } from '../common/chipLooks';

/** A payout's status as a chip: waiting (by hand or for the next run), sent, or refused by Stripe. */
export const PAYOUT_STATUS_LOOKS: Record<PayoutStatus, ChipLook> = {
  pending: { label: 'resources.payouts.status.pending', color: 'warning', outlined: true },
  paid: { label: 'resources.payouts.status.paid', color: 'success' },
  failed: { label: 'resources.payouts.status.failed', color: 'error' },
};

export const PAYOUT_STATUS_CHOICES = choicesOf(PAYOUT_STATUS_LOOKS);

export const PAYOUT_METHOD_CHOICES = [
  { id: 'manual', name: 'resources.payouts.methods.manual' },
  { id: 'stripe', name: 'resources.payouts.methods.stripe' },
];

/** A payout as the API lists it (api/src/finance/payouts/models.ts). */
export interface PayoutRecord {
  id: string;
  runId: string;
  recipientId: string;
  currency: string;
  amount: number;
  method: 'manual' | 'stripe';
  status: PayoutStatus;
  reference: string | null;
  idempotencyKey: string;
  error: string | null;
  paidAt: string | null;
  createdAt: string;
}
