import type { AdminResource } from '../resource';
import { auditLogs } from './audit';
import { certificates } from './certificates';
import { productContentResources, prices, products, upgradableProducts } from './catalog';
import { bulkPurchases, coupons, purchaseUserTransfers, purchases } from './commerce';
import { monthCloses, payoutRecipients, payouts, productRevenueSplits } from './finance';
import { invoices } from './invoices';
import { paymentPlans } from './payment-plans';
import {
  accounts,
  deviceAccessTokens,
  deviceVerifications,
  outboxEmails,
  sessions,
  userPrefs,
  users,
  verificationTokens,
} from './identity';
import { jobs } from './jobs';
import { pricingScenarios } from './pricing';
import {
  bookmarks,
  comments,
  contentResourceResources,
  contentResources,
  lessonProgress,
  quizAttempts,
} from './learning';
import {
  merchantAccounts,
  merchantCharges,
  merchantCoupons,
  merchantCustomers,
  merchantDisputes,
  merchantPrices,
  merchantProducts,
  merchantRefunds,
  merchantSessions,
} from './merchant';
import { subscriptionPeriods, subscriptions } from './subscriptions';
import { taxRates, taxRegistrations } from './tax';
import { workshopSessions } from './workshops';
import { waitlistEntries } from './waitlist';

/** Every console resource: one per entity of the data model, plus team purchases, the job queue and the audit log. */
export const ADMIN_RESOURCES: readonly AdminResource[] = [
  products,
  prices,
  paymentPlans,
  upgradableProducts,
  productContentResources,
  workshopSessions,
  waitlistEntries,
  merchantAccounts,
  merchantProducts,
  merchantPrices,
  merchantCustomers,
  merchantCoupons,
  merchantSessions,
  merchantCharges,
  merchantRefunds,
  merchantDisputes,
  coupons,
  purchases,
  bulkPurchases,
  purchaseUserTransfers,
  subscriptions,
  subscriptionPeriods,
  productRevenueSplits,
  payouts,
  payoutRecipients,
  monthCloses,
  invoices,
  taxRates,
  taxRegistrations,
  pricingScenarios,
  users,
  accounts,
  sessions,
  verificationTokens,
  deviceVerifications,
  deviceAccessTokens,
  userPrefs,
  outboxEmails,
  jobs,
  contentResources,
  contentResourceResources,
  lessonProgress,
  quizAttempts,
  comments,
  bookmarks,
  certificates,
  auditLogs,
];

export function adminResource(name: string): AdminResource {
  const resource = ADMIN_RESOURCES.find((r) => r.name === name);
  if (!resource) throw new Error(`no admin resource ${name}`);
  return resource;
}
