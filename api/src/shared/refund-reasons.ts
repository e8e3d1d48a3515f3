/**
 * Why money went back to a buyer, as a fixed code (docs/domain.md §6.4: refunds carry a reason): one list for the API
 * (its schema, the database's CHECK names the same codes, the refunds report) and the console (the refund dialog, the
 * report's labels). Staff choose among STAFF_REFUND_REASONS; the last two are written by the system only. No
 * dependencies, so the apps take it as it is.
 */
export const STAFF_REFUND_REASONS = [
  'customer-request',
  'duplicate',
  'fraudulent',
  'not-as-described',
  'technical-problem',
  'bought-by-mistake',
  'other',
] as const;

export const REFUND_REASONS = [
  ...STAFF_REFUND_REASONS,
  // A payment that arrived after the last seat went (or its upgrade source was used meanwhile): refunded in full.
  'not-fulfilled',
  // Refunded in the payment provider's dashboard: we learn of it from its event.
  'provider',
] as const;

export type RefundReason = (typeof REFUND_REASONS)[number];
export type StaffRefundReason = (typeof STAFF_REFUND_REASONS)[number];

/** The label of each reason; `null` (a refund made before reasons were recorded) reads "Not recorded". */
export const REFUND_REASON_LABELS: Record<RefundReason, string> = {
  'customer-request': 'Requested by the customer',
  duplicate: 'Duplicate purchase',
  fraudulent: 'Fraudulent',
  'not-as-described': 'Course not as described',
  'technical-problem': 'Technical problem',
  'bought-by-mistake': 'Bought by mistake',
  other: 'Other',
  'not-fulfilled': 'Could not be fulfilled',
  provider: 'Refunded at the payment provider',
};

export const NOT_RECORDED = 'Not recorded';

export const refundReasonLabel = (code: string | null | undefined): string =>
  code && code in REFUND_REASON_LABELS ? REFUND_REASON_LABELS[code as RefundReason] : NOT_RECORDED;
