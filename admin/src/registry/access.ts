import type { Role } from '../authProvider';

/** Who may read and who may write one resource; admins always may, and an absent `write` means support. */
export interface ResourceAccess {
  read: readonly Role[];
  write?: readonly Role[];
}

const STAFF = ['support', 'finance'] as const;
const SUPPORT = ['support'] as const;
const CONTENT_READERS = ['support', 'finance', 'contributor'] as const;
const CONTENT_EDITORS = ['support', 'contributor'] as const;

/**
 * Every console resource's roles, apart from its screens so that screens may ask what the signed-in roles allow
 * without importing each other. They mirror api/src/admin/resources/*.ts and api/src/video/admin-routes.ts (the
 * console uses them only to decide what to show; the API enforces them), as tests/unit/console-roles.test.ts checks.
 * Resources without create/update/remove in the API have no such screens here.
 */
export const RESOURCE_ACCESS = {
  // Catalog and sales
  products: { read: STAFF, write: SUPPORT },
  prices: { read: STAFF, write: SUPPORT },
  'payment-plans': { read: STAFF, write: SUPPORT },
  'upgradable-products': { read: STAFF, write: SUPPORT },
  'workshop-sessions': { read: STAFF, write: SUPPORT },
  purchases: { read: STAFF, write: SUPPORT },
  'bulk-purchases': { read: STAFF, write: SUPPORT },
  // Read-only: ended or refunded by their actions (POST /api/admin/subscriptions/:id/cancel, …/periods/:id/refund).
  subscriptions: { read: STAFF },
  'subscription-periods': { read: STAFF },
  coupons: { read: STAFF, write: SUPPORT },
  'purchase-user-transfers': { read: STAFF, write: SUPPORT },
  'product-revenue-splits': { read: STAFF, write: ['finance'] },
  // Payouts: made by runs and marked paid by finance; finance sets who is paid by Stripe Connect.
  payouts: { read: ['finance'], write: ['finance'] },
  'payout-recipients': { read: ['finance'], write: ['finance'] },
  // Closing a month: finance closes them in order; nobody edits or reopens one.
  'month-closes': { read: ['finance'], write: ['finance'] },
  'waitlist-entries': { read: SUPPORT, write: SUPPORT },
  'pricing-scenarios': { read: STAFF, write: STAFF },
  // Tax: finance reads the rate table and the registrations; administrators change them.
  'tax-rates': { read: ['finance'], write: [] },
  'tax-registrations': { read: ['finance'], write: [] },
  // A payment provider's resources: staff read them; support may change a mirror's status.
  // Invoices and credit notes: finance files them; nobody rewrites one.
  invoices: { read: ['finance'], write: [] },
  'merchant-charges': { read: STAFF, write: SUPPORT },
  // Read-only: refunds are made from a purchase (POST /api/admin/purchases/:id/refund), disputes by the provider.
  'merchant-refunds': { read: STAFF },
  'merchant-disputes': { read: STAFF },
  'merchant-customers': { read: STAFF, write: SUPPORT },
  'merchant-sessions': { read: STAFF, write: SUPPORT },
  'merchant-products': { read: STAFF, write: SUPPORT },
  'merchant-prices': { read: STAFF, write: SUPPORT },
  'merchant-coupons': { read: STAFF, write: SUPPORT },
  'merchant-accounts': { read: STAFF, write: SUPPORT },
  'audit-logs': { read: STAFF },
  // Course content and learners' activity
  'content-resources': { read: CONTENT_READERS, write: CONTENT_EDITORS },
  'content-resource-resources': { read: CONTENT_READERS, write: CONTENT_EDITORS },
  'product-content-resources': { read: CONTENT_READERS, write: SUPPORT },
  // Served by their own routes (api/src/video/admin-routes.ts), not a generic resource: same roles as content.
  videos: { read: CONTENT_READERS, write: CONTENT_EDITORS },
  'lesson-progress': { read: SUPPORT },
  'quiz-attempts': { read: SUPPORT },
  comments: { read: SUPPORT },
  bookmarks: { read: SUPPORT },
  certificates: { read: SUPPORT },
  'user-prefs': { read: SUPPORT },
  // People and the system
  users: { read: STAFF, write: SUPPORT },
  // Support answers "I never got the email": they open the outbox, retry and resend (sign-in links stay hidden).
  'outbox-emails': { read: SUPPORT, write: SUPPORT },
  jobs: { read: [] },
  accounts: { read: SUPPORT, write: SUPPORT },
  sessions: { read: SUPPORT, write: SUPPORT },
  'verification-tokens': { read: SUPPORT, write: SUPPORT },
  'device-verifications': { read: SUPPORT, write: SUPPORT },
  'device-access-tokens': { read: SUPPORT, write: SUPPORT },
} as const satisfies Record<string, ResourceAccess>;

type ResourceName = keyof typeof RESOURCE_ACCESS;

/** Every resource the console knows, by name. */
export const RESOURCE_NAMES = Object.keys(RESOURCE_ACCESS) as ResourceName[];

/** The roles of a resource named at run time (a route's or a reference's), if the console knows it. */
export const resourceAccess = (name: string): ResourceAccess | undefined =>
  Object.hasOwn(RESOURCE_ACCESS, name) ? RESOURCE_ACCESS[name as ResourceName] : undefined;

/** A resource's name and roles, to spread into its registry entry. */
export const accessOf = (name: ResourceName): { name: ResourceName } & ResourceAccess => ({
  name,
  ...RESOURCE_ACCESS[name],
});

const allowed = (roles: readonly Role[], list: readonly Role[]) =>
  roles.includes('admin') || list.some((r) => roles.includes(r));

export const canRead = (roles: readonly Role[], resource: ResourceAccess) => allowed(roles, resource.read);
export const canWrite = (roles: readonly Role[], resource: ResourceAccess) =>
  allowed(roles, resource.write ?? ['support']);
