/**
 * How a purchase came about, as far as money goes: `standard` through the store's own paths (a checkout, paid or
 * free, a team seat taken, a purchase moved), or `comp`, a course staff gave a person for a stated reason, with no
 * charge and no revenue. One statement for the API and the console; no dependencies.
 */
export const PURCHASE_KINDS = ['standard', 'comp'] as const;
export type PurchaseKind = (typeof PURCHASE_KINDS)[number];

/** What `purchaseKindInWords` reads of a purchase. */
export interface KindFacts {
  kind?: string | null;
  bulkCouponId: string | null;
  redeemedBulkCouponId: string | null;
  upgradedFromId: string | null;
  totalAmount: number;
}

/** How a purchase came about, in words: the console's lists and pages and their exports say it the same way. */
export function purchaseKindInWords(p: KindFacts): string {
  if (p.kind === 'comp') return 'Comp (given by staff)';
  if (p.bulkCouponId) return 'Team purchase';
  if (p.redeemedBulkCouponId) return 'Team seat';
  if (p.upgradedFromId) return 'Upgrade';
  if (p.totalAmount === 0) return 'Free';
  return 'Individual';
}
