/**
 * Every action the audit log records, with its words: the one list the API writes from (recordAudit takes only
 * these, so a new action cannot be written without its words) and the console reads (the action's chip and filter,
 * the timeline's lines). No dependencies, so the console takes it as it is.
 */
export const AUDIT_ACTION_WORDS = {
  create: 'Created',
  update: 'Updated',
  delete: 'Deleted',
  generate: 'Coupons generated',
  reorder: 'Reordered',
  retry: 'Retried',
  resend: 'Resent',
  'receipt-resent': 'Receipt sent again',
  'sign-out-everywhere': 'Signed out everywhere',
  upload: 'Video uploaded',
  'replace-source': 'Video replaced',
  'set-captions': 'Captions added',
  'remove-captions': 'Captions removed',
  'set-image': 'Image changed',
  'remove-image': 'Image removed',
  'set-avatar': 'Picture changed',
  'remove-avatar': 'Picture removed',
  'purchase.refunded': 'Purchase refunded',
  'purchase.partially-refunded': 'Purchase partly refunded',
  'purchase.refund-failed': 'Refund failed at the provider',
  'purchase.banned': 'Purchase banned',
  'purchase.disputed': 'Purchase disputed',
  'purchase.dispute-won': 'Dispute won',
  'purchase.comped': 'Course given',
  'subscription.canceled': 'Subscription ended now',
  'subscription.cancel-at-period-end': "Subscription set to end at its period's end",
  'subscription.ended-at-period-end': "Subscription ended at its period's end",
  'subscription.period-refunded': 'Subscription period refunded',
  'payout.run': 'Payout run',
  'payout.paid': 'Payout sent',
  'payout.failed': 'Payout failed at the provider',
  'payout.marked-paid': 'Payout marked paid',
  'month.closed': 'Month closed',
  'transfer.initiated': 'Transfer offered',
  'transfer.confirmed': 'Transfer accepted',
  'transfer.completed': 'Transfer completed',
  'transfer.canceled': 'Transfer canceled',
  'transfer.moved-by-support': 'Moved by support',
  'team.seats-added': 'Team seats added',
  'team.seat-revoked': 'Team seat revoked',
  'team.member-readmitted': 'Team member let back in',
  'team.invite-reset': 'Team invite link replaced',
  'user.blocked': 'User blocked',
  'user.unblocked': 'User unblocked',
  'user.email-changed': 'User email changed',
  'user.roles-changed': 'Roles changed',
  'user.deleted': 'Account deleted',
  'user.data-exported': 'Personal data downloaded',
  'view-as.started': 'View as started',
  'view-as.entered': 'View as entered',
  'view-as.ended': 'View as ended',
  'pricing-scenario.accepted': 'Pricing scenario accepted',
  'certificate.revoked': 'Certificate revoked',
  'certificate.name-corrected': 'Certificate name corrected',
  'comment.hidden': 'Comment hidden',
  'comment.shown': 'Comment shown again',
} as const satisfies Record<string, string>;

export type AuditAction = keyof typeof AUDIT_ACTION_WORDS;

export const AUDIT_ACTIONS = Object.keys(AUDIT_ACTION_WORDS) as AuditAction[];

/** An action in words; one recorded before it had words (or a name kept from older entries) as it reads. */
export function auditActionInWords(action: string): string {
  if (Object.hasOwn(AUDIT_ACTION_WORDS, action)) return AUDIT_ACTION_WORDS[action as AuditAction];
  const words = action.replace(/[.-]/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
