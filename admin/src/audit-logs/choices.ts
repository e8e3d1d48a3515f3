import type { AuditLogRecord } from '@contract/audit/schemas';
import type { Wire } from '@contract/shared/wire';
import { choicesOf, type ChipLook } from '../common/StatusChipField';

/** The API's console resources (api/src/admin/resources/index.ts): what an audit entry's `resource` can name. */
export const AUDITED_RESOURCES = [
  'products',
  'prices',
  'upgradable-products',
  'product-content-resources',
  'merchant-accounts',
  'merchant-products',
  'merchant-prices',
  'merchant-customers',
  'merchant-coupons',
  'merchant-sessions',
  'merchant-charges',
  'coupons',
  'purchases',
  'bulk-purchases',
  'purchase-user-transfers',
  'product-revenue-splits',
  'users',
  'accounts',
  'sessions',
  'verification-tokens',
  'device-verifications',
  'device-access-tokens',
  'user-prefs',
  'outbox-emails',
  'jobs',
  'content-resources',
  'content-resource-resources',
  'lesson-progress',
  'comments',
  'bookmarks',
];

/** Each action's chip; labels are catalog keys (console.audit.action.*). */
export const ACTION_LOOKS: Record<string, ChipLook> = {
  create: { label: 'console.audit.action.create', color: 'success' },
  update: { label: 'console.audit.action.update', color: 'info' },
  delete: { label: 'console.audit.action.delete', color: 'error' },
  generate: { label: 'console.audit.action.generate', color: 'success' },
  reorder: { label: 'console.audit.action.reorder', color: 'info' },
  refund: { label: 'console.audit.action.refund', color: 'warning' },
  transfer: { label: 'console.audit.action.transfer', color: 'info' },
  ban: { label: 'console.audit.action.ban', color: 'error' },
  'sign-out-everywhere': { label: 'console.audit.action.signOutEverywhere', color: 'warning' },
  retry: { label: 'console.audit.action.retry', color: 'info' },
};

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
