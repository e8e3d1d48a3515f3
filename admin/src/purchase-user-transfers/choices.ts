import type { TransferRecord } from '@contract/commerce/schemas';
import type { Wire } from '@contract/shared/wire';
import type { TransferState } from '@contract/shared/transfer-states';
import { choicesOf, type ChipLook } from '../common/chipLooks';

export const TRANSFER_STATE_LOOKS: Record<TransferState, ChipLook> = {
  AVAILABLE: { label: 'Available', color: 'default' },
  INITIATED: { label: 'Initiated', color: 'info' },
  VERIFIED: { label: 'Verified', color: 'info' },
  CONFIRMED: { label: 'Confirmed', color: 'primary' },
  COMPLETED: { label: 'Completed', color: 'success' },
  CANCELED: { label: 'Canceled', color: 'default' },
  EXPIRED: { label: 'Expired', color: 'warning' },
};

export const TRANSFER_STATE_CHOICES = choicesOf(TRANSFER_STATE_LOOKS);

/** A transfer as the console sees it (the `purchase-user-transfers` resource). */
export type PurchaseUserTransfer = Wire<TransferRecord>;
