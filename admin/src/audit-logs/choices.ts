import type { AuditLogRecord } from '@contract/audit/schemas';
import type { Wire } from '@contract/shared/wire';
import { AUDIT_ACTIONS, AUDIT_ACTION_WORDS, type AuditAction } from '../../../api/src/shared/audit-actions';
import { choicesOf, type ChipColor, type ChipLook } from '../common/chipLooks';

/** How an action's chip is coloured: removals and ends red, money going back amber, making things green. */
function colorOf(action: AuditAction): ChipColor {
  if (/delete|remove|banned|blocked|revoked|disputed|canceled|hidden/.test(action)) return 'error';
  if (/refunded|sign-out|view-as|email-changed|reset/.test(action)) return 'warning';
  if (/create|generate|upload|added|completed|won|readmitted|unblocked|shown/.test(action)) return 'success';
  return 'info';
}

/** Each action's chip, in the words the API gives it (api/src/shared/audit-actions.ts). */
export const ACTION_LOOKS: Record<string, ChipLook> = Object.fromEntries(
  AUDIT_ACTIONS.map((action) => [action, { label: AUDIT_ACTION_WORDS[action], color: colorOf(action) }]),
);

export const ACTION_CHOICES = choicesOf(ACTION_LOOKS);

/** An audit entry (api/src/audit/schemas.ts). */
export type AuditLog = Wire<AuditLogRecord>;

/** The top-level keys whose values differ between before and after (all keys of a create or delete). */
export function changedKeys(entry: Pick<AuditLog, 'before' | 'after'>): string[] {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys.filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key])).sort();
}
