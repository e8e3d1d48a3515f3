/**
 * Why staff act (block a person, view as them, give a course, ban a purchase, add seats, refund, hide a comment,
 * revoke a certificate): kept with the action and in the audit log. At least 3 characters once trimmed where one is
 * required, never more than 500: one rule for the API's schemas and the console's fields (no dependencies, so the
 * console takes it as it is).
 */
export const STAFF_REASON_MIN = 3;
export const STAFF_REASON_MAX = 500;
