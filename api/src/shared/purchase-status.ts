/**
 * A purchase's statuses and which of them let the buyer in: the one statement of the rule, for the API, the console
 * and the storefront alike (no dependencies, so the apps can take it as it is).
 */
export const PURCHASE_STATUSES = ['Valid', 'Restricted', 'Refunded', 'Disputed', 'Banned'] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];

/** The statuses that grant access (a Restricted one only from its country). */
export const GRANTING_STATUSES = ['Valid', 'Restricted'] as const satisfies readonly PurchaseStatus[];

/** Whether a purchase (or a team's purchase, for its seats) still lets people in. */
export const grantsAccess = (status: string): boolean => (GRANTING_STATUSES as readonly string[]).includes(status);
