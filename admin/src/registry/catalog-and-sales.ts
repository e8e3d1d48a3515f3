import auditLogs from '../audit-logs';
import bulkPurchases from '../bulk-purchases';
import coupons from '../coupons';
import { MERCHANT_SCREENS } from '../merchant-records';
import prices from '../prices';
import productRevenueSplits from '../product-revenue-splits';
import products from '../products';
import purchaseUserTransfers from '../purchase-user-transfers';
import purchases from '../purchases';
import upgradableProducts from '../upgradable-products';
import type { ConsoleResource } from './types';

const STAFF = ['support', 'finance'] as const;

// Catalog, sales, payments, finance and the audit log. `read`/`write` mirror api/src/admin/resources/*.ts
// (admins always may; write defaults to support). Resources without create/update/remove there have no such screens here.
export const CATALOG_AND_SALES_RESOURCES: ConsoleResource[] = [
  { name: 'products', read: STAFF, write: ['support'], ...products, group: 'Catalog' },
  { name: 'prices', read: STAFF, write: ['support'], ...prices, group: 'Catalog' },
  { name: 'upgradable-products', read: STAFF, write: ['support'], ...upgradableProducts, group: 'Catalog' },

  { name: 'purchases', read: STAFF, write: ['support'], ...purchases, group: 'Sales' },
  { name: 'bulk-purchases', read: STAFF, write: ['support'], ...bulkPurchases, group: 'Sales' },
  { name: 'coupons', read: STAFF, write: ['support'], ...coupons, group: 'Sales' },
  { name: 'purchase-user-transfers', read: STAFF, write: ['support'], ...purchaseUserTransfers, group: 'Sales' },
  { name: 'product-revenue-splits', read: STAFF, write: ['finance'], ...productRevenueSplits, group: 'Sales' },

  {
    name: 'merchant-charges',
    read: STAFF,
    write: ['support'],
    ...MERCHANT_SCREENS['merchant-charges'],
    group: 'Payments',
  },
  // Read-only: refunds are made from a purchase (POST /api/admin/purchases/:id/refund), disputes by the provider.
  { name: 'merchant-refunds', read: STAFF, ...MERCHANT_SCREENS['merchant-refunds'], group: 'Payments' },
  { name: 'merchant-disputes', read: STAFF, ...MERCHANT_SCREENS['merchant-disputes'], group: 'Payments' },
  {
    name: 'merchant-customers',
    read: STAFF,
    write: ['support'],
    ...MERCHANT_SCREENS['merchant-customers'],
    group: 'Payments',
  },
  {
    name: 'merchant-sessions',
    read: STAFF,
    write: ['support'],
    ...MERCHANT_SCREENS['merchant-sessions'],
    group: 'Payments',
  },
  {
    name: 'merchant-products',
    read: STAFF,
    write: ['support'],
    ...MERCHANT_SCREENS['merchant-products'],
    group: 'Payments',
  },
  {
    name: 'merchant-prices',
    read: STAFF,
    write: ['support'],
    ...MERCHANT_SCREENS['merchant-prices'],
    group: 'Payments',
  },
  {
    name: 'merchant-coupons',
    read: STAFF,
    write: ['support'],
    ...MERCHANT_SCREENS['merchant-coupons'],
    group: 'Payments',
  },
  {
    name: 'merchant-accounts',
    read: STAFF,
    write: ['support'],
    ...MERCHANT_SCREENS['merchant-accounts'],
    group: 'Payments',
  },

  { name: 'audit-logs', read: STAFF, ...auditLogs, group: 'System' },
];
