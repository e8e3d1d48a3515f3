import type { PurchaseRecord } from '@contract/commerce/schemas';
import type { Wire } from '@contract/shared/wire';
import type { PurchaseStatus } from '@contract/shared/purchase-status';
import { purchaseKindInWords } from '../../../api/src/shared/purchase-kinds';
import { choicesOf, type ChipLook } from '../common/chipLooks';

export const PURCHASE_STATUS_LOOKS: Record<PurchaseStatus, ChipLook> = {
  Valid: { label: 'Valid', color: 'success' },
  Restricted: { label: 'Restricted', choice: 'Restricted (regional price)', color: 'info' },
  Refunded: { label: 'Refunded', color: 'warning' },
  Disputed: { label: 'Disputed', color: 'error' },
  Banned: { label: 'Banned', color: 'error' },
  Revoked: { label: 'Seat revoked', choice: 'Revoked (team seat taken back)', color: 'default' },
};

export const PURCHASE_STATUS_CHOICES = choicesOf(PURCHASE_STATUS_LOOKS);

/** A purchase as the console sees it (the `purchases` resource). */
export type Purchase = Wire<PurchaseRecord>;

/** How the purchase came about, in words (the API's exports say it the same way). */
export const purchaseKind = (
  p: Pick<Purchase, 'bulkCouponId' | 'redeemedBulkCouponId' | 'totalAmount' | 'upgradedFromId' | 'kind'>,
): string => purchaseKindInWords(p);
