/**
 * Where a dispute (chargeback) of a charge stands: open until the provider closes it, won or lost. One list for the
 * API (its model; the database's CHECK names the same three) and the console (its status chips and filter). No
 * dependencies.
 */
export const DISPUTE_STATUSES = ['open', 'won', 'lost'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];
