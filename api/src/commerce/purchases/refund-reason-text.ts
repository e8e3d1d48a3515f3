import { refundReasonLabel, type RefundReason } from '../../shared/refund-reasons';

/** A refund's reason in words, for the provider, the purchase's status reason and the audit log. */
export const refundReasonText = (code: RefundReason, note?: string | null) =>
  note ? `${refundReasonLabel(code)}: ${note}` : refundReasonLabel(code);
