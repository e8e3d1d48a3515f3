import auditLogs from '../audit-logs';
import bulkPurchases from '../bulk-purchases';
import coupons from '../coupons';
import invoices from '../invoices';
import monthCloses from '../month-closes';
import payoutRecipients from '../payout-recipients';
import payouts from '../payouts';
import paymentPlans from '../payment-plans';
import { MERCHANT_SCREENS } from '../merchant-records';
import prices from '../prices';
import pricing from '../pricing';
import productRevenueSplits from '../product-revenue-splits';
import products from '../products';
import purchaseUserTransfers from '../purchase-user-transfers';
import purchases from '../purchases';
import { subscriptionPeriods, subscriptions } from '../subscriptions';
import upgradableProducts from '../upgradable-products';
import workshopSessions from '../workshop-sessions';
import waitlistEntries from '../waitlist-entries';
import { accessOf } from './access';
import type { ConsoleResource } from './types';

/** A payment provider's resource (its roles in ./access). */
const payments = (name: keyof typeof MERCHANT_SCREENS): ConsoleResource => ({
  ...accessOf(name),
  ...MERCHANT_SCREENS[name],
  group: 'Payments',
});

// Catalog, sales, payments, finance and the audit log; who may read and write each is in ./access.
export const CATALOG_AND_SALES_RESOURCES: ConsoleResource[] = [
  { ...accessOf('products'), ...products, group: 'Catalog' },
  { ...accessOf('prices'), ...prices, group: 'Catalog' },
  { ...accessOf('payment-plans'), ...paymentPlans, group: 'Catalog' },
  { ...accessOf('upgradable-products'), ...upgradableProducts, group: 'Catalog' },
  { ...accessOf('workshop-sessions'), ...workshopSessions, group: 'Catalog' },

  { ...accessOf('purchases'), ...purchases, group: 'Sales' },
  { ...accessOf('bulk-purchases'), ...bulkPurchases, group: 'Sales' },
  { ...accessOf('subscriptions'), ...subscriptions, group: 'Sales' },
  { ...accessOf('subscription-periods'), ...subscriptionPeriods, group: 'Sales' },
  { ...accessOf('coupons'), ...coupons, group: 'Sales' },
  { ...accessOf('purchase-user-transfers'), ...purchaseUserTransfers, group: 'Sales' },
  { ...accessOf('product-revenue-splits'), ...productRevenueSplits, group: 'Sales' },
  { ...accessOf('invoices'), ...invoices, group: 'Sales' },
  { ...accessOf('payouts'), ...payouts, group: 'Sales' },
  { ...accessOf('payout-recipients'), ...payoutRecipients, group: 'Sales' },
  { ...accessOf('month-closes'), ...monthCloses, group: 'Sales' },
  { ...accessOf('waitlist-entries'), ...waitlistEntries, group: 'Sales' },
  { ...accessOf('pricing-scenarios'), ...pricing, group: 'Sales' },

  payments('merchant-charges'),
  payments('merchant-refunds'),
  payments('merchant-disputes'),
  payments('merchant-customers'),
  payments('merchant-sessions'),
  payments('merchant-products'),
  payments('merchant-prices'),
  payments('merchant-coupons'),
  payments('merchant-accounts'),

  { ...accessOf('audit-logs'), ...auditLogs, group: 'System' },
];
