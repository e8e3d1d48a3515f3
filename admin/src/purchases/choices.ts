import type { ChipLook } from '../common/StatusChipField';

export const PURCHASE_STATUSES = ['Valid', 'Restricted', 'Refunded', 'Disputed', 'Banned'] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];

export const PURCHASE_STATUS_CHOICES = [
  { id: 'Valid', name: 'Valid' },
  { id: 'Restricted', name: 'Restricted (regional price)' },
  { id: 'Refunded', name: 'Refunded' },
  { id: 'Disputed', name: 'Disputed' },
  { id: 'Banned', name: 'Banned' },
];

export const PURCHASE_STATUS_LOOKS: Record<string, ChipLook> = {
  Valid: { label: 'Valid', color: 'success' },
  Restricted: { label: 'Restricted', color: 'info' },
  Refunded: { label: 'Refunded', color: 'warning' },
  Disputed: { label: 'Disputed', color: 'error' },
  Banned: { label: 'Banned', color: 'error' },
};

export interface Purchase {
  id: string;
  userId: string;
  productId: string;
  status: PurchaseStatus;
  totalAmount: number;
  currency: string;
  ipAddress: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  couponId: string | null;
  bulkCouponId: string | null;
  redeemedBulkCouponId: string | null;
  merchantChargeId: string | null;
  merchantSessionId: string | null;
  upgradedFromId: string | null;
  /** Why staff banned or refunded it, when they did. */
  statusReason: string | null;
  createdAt: string;
  updatedAt: string;
}

/** How the purchase came about, in words. */
export function purchaseKind(p: Pick<Purchase, 'bulkCouponId' | 'redeemedBulkCouponId' | 'totalAmount' | 'upgradedFromId'>): string {
  if (p.bulkCouponId) return 'Team purchase';
  if (p.redeemedBulkCouponId) return 'Team seat';
  if (p.upgradedFromId) return 'Upgrade';
  if (p.totalAmount === 0) return 'Free';
  return 'Individual';
}
