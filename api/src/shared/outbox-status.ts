/** Where an outbound email stands: one list for the API (the outbox) and the console (its status filter). No dependencies. */
export const OUTBOX_STATUSES = ['pending', 'sent', 'failed'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];
