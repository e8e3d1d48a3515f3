/**
 * How a purchase came about, as far as money goes: `standard` through the store's own paths (a checkout, paid or
 * free, a team seat taken, a purchase moved), or `comp`, a course staff gave a person for a stated reason, with no
 * charge and no revenue. One statement for the API and the console; no dependencies.
 */
export const PURCHASE_KINDS = ['standard', 'comp'] as const;
export type PurchaseKind = (typeof PURCHASE_KINDS)[number];
