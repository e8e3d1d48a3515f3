import { choicesOf, type ChipLook } from '../common/StatusChipField';

export const TRANSFER_STATE_LOOKS: Record<string, ChipLook> = {
  AVAILABLE: { label: 'Available', color: 'default' },
  INITIATED: { label: 'Initiated', color: 'info' },
  VERIFIED: { label: 'Verified', color: 'info' },
  CONFIRMED: { label: 'Confirmed', color: 'primary' },
  COMPLETED: { label: 'Completed', color: 'success' },
  CANCELED: { label: 'Canceled', color: 'default' },
  EXPIRED: { label: 'Expired', color: 'warning' },
};

export const TRANSFER_STATE_CHOICES = choicesOf(TRANSFER_STATE_LOOKS);

export interface PurchaseUserTransfer {
  id: string;
  transferState: keyof typeof TRANSFER_STATE_LOOKS;
  purchaseId: string;
  sourceUserId: string;
  targetUserId: string | null;
  createdAt: string;
  expiresAt: string;
  canceledAt: string | null;
  confirmedAt: string | null;
  completedAt: string | null;
}

/** The states support may cancel (POST /api/admin/purchase-user-transfers/:id/cancel); the API refuses the others. */
export const CANCELABLE_STATES: readonly string[] = ['INITIATED', 'VERIFIED'];
