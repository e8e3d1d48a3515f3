/**
 * A purchase's statuses and which of them let the buyer in: the one statement of the rule, for the API, the console
 * and the storefront alike (no dependencies, so the apps can take it as it is). `Revoked` is a team seat its owner
 * (or support) took back: the row stays, for the history.
 */
export const PURCHASE_STATUSES = ['Valid', 'Restricted', 'Refunded', 'Disputed', 'Banned', 'Revoked'] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];

/** The statuses that grant access (a Restricted one only from its country). */
export const GRANTING_STATUSES = ['Valid', 'Restricted'] as const satisfies readonly PurchaseStatus[];

/** The status that grants access from anywhere: a purchase that is simply the buyer's. */
export const UNRESTRICTED_STATUSES = ['Valid'] as const satisfies readonly PurchaseStatus[];

/** Whether a purchase (or a team's purchase, for its seats) still lets people in. */
export const grantsAccess = (status: string): boolean => (GRANTING_STATUSES as readonly string[]).includes(status);

/** The statuses that let nobody in: where a granting purchase goes when refunded, disputed, banned or revoked. */
export const NON_GRANTING_STATUSES: readonly PurchaseStatus[] = PURCHASE_STATUSES.filter(
  (status) => !grantsAccess(status),
);
