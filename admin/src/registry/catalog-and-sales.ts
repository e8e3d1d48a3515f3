import auditLogs from '../audit-logs';
import bulkPurchases from '../bulk-purchases';
import coupons from '../coupons';
import { MERCHANT_SCREENS } from '../merchant-records';
import prices from '../prices';
import pricing from '../pricing';
import productRevenueSplits from '../product-revenue-splits';
import products from '../products';
import purchaseUserTransfers from '../purchase-user-transfers';
import purchases from '../purchases';
import upgradableProducts from '../upgradable-products';
import workshopSessions from '../workshop-sessions';
import waitlistEntries from '../waitlist-entries';
import type { ConsoleResource } from './types';

const STAFF = ['support', 'finance'] as const;

/** A payment provider's resource: staff read it; support may change it (a mirror's status) unless `writable` is false. */
const payments = (name: keyof typeof MERCHANT_SCREENS, writable = true): ConsoleResource => ({
  name,
  read: STAFF,
  ...(writable ? { write: ['support'] as const } : {}),
  ...MERCHANT_SCREENS[name],
  group: 'Payments',
});

// Catalog, sales, payments, finance and the audit log. `read`/`write` mirror api/src/admin/resources/*.ts
// (admins always may; write defaults to support). Resources without create/update/remove there have no such screens here.
export const CATALOG_AND_SALES_RESOURCES: ConsoleResource[] = [
  { name: 'products', read: STAFF, write: ['support'], ...products, group: 'Catalog' },
  { name: 'prices', read: STAFF, write: ['support'], ...prices, group: 'Catalog' },
  { name: 'upgradable-products', read: STAFF, write: ['support'], ...upgradableProducts, group: 'Catalog' },
  { name: 'workshop-sessions', read: STAFF, write: ['support'], ...workshopSessions, group: 'Catalog' },

  { name: 'purchases', read: STAFF, write: ['support'], ...purchases, group: 'Sales' },
  { name: 'bulk-purchases', read: STAFF, write: ['support'], ...bulkPurchases, group: 'Sales' },
  { name: 'coupons', read: STAFF, write: ['support'], ...coupons, group: 'Sales' },
  { name: 'purchase-user-transfers', read: STAFF, write: ['support'], ...purchaseUserTransfers, group: 'Sales' },
  { name: 'product-revenue-splits', read: STAFF, write: ['finance'], ...productRevenueSplits, group: 'Sales' },
  { name: 'waitlist-entries', read: ['support'], write: ['support'], ...waitlistEntries, group: 'Sales' },
  { name: 'pricing-scenarios', read: STAFF, write: STAFF, ...pricing, group: 'Sales' },

  payments('merchant-charges'),
  // Read-only: refunds are made from a purchase (POST /api/admin/purchases/:id/refund), disputes by the provider.
  payments('merchant-refunds', false),
  payments('merchant-disputes', false),
  payments('merchant-customers'),
  payments('merchant-sessions'),
  payments('merchant-products'),
  payments('merchant-prices'),
  payments('merchant-coupons'),
  payments('merchant-accounts'),

  { name: 'audit-logs', read: STAFF, ...auditLogs, group: 'System' },
];
