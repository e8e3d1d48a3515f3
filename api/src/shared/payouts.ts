/** A payout's states: made pending by a run, paid once sent (or marked paid by hand), failed when Stripe refused it. */
export const PAYOUT_STATUSES = ['pending', 'paid', 'failed'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** How a payout is sent: by hand (a bank transfer, then marked paid) or by a Stripe Connect transfer. */
export const PAYOUT_METHODS = ['manual', 'stripe'] as const;
export type PayoutMethod = (typeof PAYOUT_METHODS)[number];
