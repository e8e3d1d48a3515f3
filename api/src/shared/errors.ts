// The one error model of the API's rules: services throw an AppError with a stable code; http/errors.ts maps it
// (and zod's and the database's errors) to an answer. It lives here, not in http/, because services raise it.

/** Every error code the API answers with, and its HTTP status. Codes are stable: clients match on them. */
export const ERROR_STATUS = {
  'validation-failed': 400,
  'invalid-json': 400,
  'constraint-violated': 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  'route-not-found': 404,
  'method-not-allowed': 405,
  conflict: 409,
  'product-has-purchases': 409,
  'coupon-has-purchases': 409,
  'coupon-is-team-seats': 409,
  'user-has-purchases': 409,
  'price-has-sales': 409,
  'product-not-found': 404,
  'sold-out': 409,
  'enrollment-closed': 409,
  'enrollment-not-open': 409,
  'product-on-sale': 409,
  'waitlist-link-invalid': 400,
  'unsubscribe-link-invalid': 400,
  'coupon-not-found': 400,
  'coupon-expired': 400,
  'coupon-used-up': 409,
  'coupon-not-valid-for-product': 400,
  'coupon-inactive': 400,
  'coupon-not-valid': 400,
  'upgrade-not-available': 409,
  'upgrade-other-currency': 409,
  'currency-not-supported': 409,
  'webhook-signature-invalid': 400,
  'payments-not-configured': 404,
  'payment-provider-unavailable': 502,
  'refund-too-large': 409,
  'refund-not-possible': 409,
  'payout-already-paid': 409,
  'payout-not-manual': 409,
  'payout-sent-by-stripe': 409,
  'payout-being-sent': 409,
  'payout-recipient-has-unpaid-payouts': 409,
  'reconciliation-not-available': 409,
  'reconciliation-already-matched': 409,
  'reconciliation-not-recoverable': 409,
  'earnings-not-found': 404,
  'month-not-ended': 409,
  'month-already-closed': 409,
  'earlier-month-open': 409,
  'month-not-closed': 404,
  'status-change-not-allowed': 409,
  'transfer-not-found': 404,
  'transfer-not-available': 409,
  'transfer-expired': 409,
  'not-transfer-recipient': 409,
  'not-purchase-owner': 409,
  'already-purchased': 409,
  'product-archived': 409,
  'product-draft': 409,
  'person-blocked': 409,
  'purchase-upgraded': 409,
  'seat-revoked': 403,
  'gift-not-for-buyer': 409,
  'team-not-found': 404,
  'team-inactive': 409,
  'lesson-locked': 403,
  'media-link-invalid': 403,
  'media-link-expired': 403,
  'media-not-yours': 403,
  'range-not-satisfiable': 416,
  'video-not-ready': 409,
  'not-comment-author': 403,
  'reply-to-reply': 409,
  'workshop-not-held': 403,
  'certificate-revoked': 410,
  'name-already-corrected': 409,
  'not-team-owner': 403,
  'already-exists': 409,
  'scenario-not-run': 409,
  'buyer-blocked': 403,
  'account-blocked': 403,
  'confirmation-mismatch': 422,
  'vat-id-invalid': 422,
  'invoice-not-latest': 409,
  'billing-region-required': 422,
  'billing-region-invalid': 422,
  'billing-postal-code-required': 422,
  'tax-id-required': 422,
  'account-is-staff': 409,
  'account-is-blocked': 409,
  'account-deleted': 410,
  'email-not-resendable': 409,
  'receipt-not-available': 409,
  'view-as-read-only': 403,
  'view-as-staff': 403,
  'view-as-self': 409,
  'reference-conflict': 409,
  'csrf-token-invalid': 403,
  'invalid-token': 401,
  'sign-in-link-invalid': 400,
  'sign-in-link-expired': 400,
  'device-code-not-found': 404,
  'device-code-expired': 410,
  'device-code-already-used': 409,
  'oauth-provider-not-configured': 404,
  'payload-too-large': 413,
  'video-not-failed': 409,
  'caption-invalid': 400,
  'unsupported-image-type': 415,
  'image-unreadable': 422,
  'image-too-many-pixels': 422,
  'rate-limited': 429,
  'internal-error': 500,
  'service-unavailable': 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fieldErrors?: Record<string, string>,
    /** Extra response headers, e.g. Retry-After on 429 or WWW-Authenticate on 401. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  /** react-admin's shape: field name → message, so form inputs show it. */
  errors?: Record<string, string>;
  requestId?: string;
}
