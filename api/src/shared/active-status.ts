/**
 * A coupon's or a merchant record's status: switched off rather than deleted once purchases name it. One list for
 * the API (models, the console's write schemas) and the console (its pickers). No dependencies.
 */
export const ACTIVE_STATUSES = ['active', 'inactive'] as const;
export type ActiveStatus = (typeof ACTIVE_STATUSES)[number];
