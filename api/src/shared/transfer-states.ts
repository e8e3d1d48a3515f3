/**
 * A transfer's states (docs/domain.md §8) and which of them are still under way or may be canceled: one statement for
 * the API (its queries and rules), the storefront (whether to show the transfer control) and the console (its state
 * chips and cancel button). No dependencies, so the apps take it as it is.
 */
export const TRANSFER_STATES = [
  'AVAILABLE',
  'INITIATED',
  'VERIFIED',
  'CONFIRMED',
  'COMPLETED',
  'CANCELED',
  'EXPIRED',
] as const;
export type TransferState = (typeof TRANSFER_STATES)[number];

/** States in which a transfer is still under way (one per purchase, enforced by a partial unique index). */
export const OPEN_TRANSFER_STATES = [
  'AVAILABLE',
  'INITIATED',
  'VERIFIED',
  'CONFIRMED',
] as const satisfies readonly TransferState[];

/** States in which an offer may be canceled (by its owner, or by support): offered, not yet accepted. */
export const CANCELABLE_TRANSFER_STATES = ['INITIATED', 'VERIFIED'] as const satisfies readonly TransferState[];

/** Whether a transfer in `state` is still under way. */
export const isOpenTransfer = (state: string): boolean => (OPEN_TRANSFER_STATES as readonly string[]).includes(state);
