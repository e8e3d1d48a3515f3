import { Subscription, SubscriptionPeriod } from '../../commerce/models';
import { SUBSCRIPTION_STATUS_NOW } from '../../shared/subscription-status';
import { derived, instant, money, text, yesNo } from '../../http/csv-columns';
import { person, productNamed } from '../lists/export-lookups';
import { defineResource } from '../resource';

const STAFF = ['support', 'finance'] as const;

/** A subscription's status at the moment the database reads it (a lapse or an end that time made, before a sweep). */
const STATUS_NOW = SUBSCRIPTION_STATUS_NOW.replaceAll('s.', 'subscriptions.').replaceAll('?', 'now()');

const SUBSCRIPTION_COLUMNS = [
  'id',
  'userId',
  'productId',
  'priceId',
  'merchantAccountId',
  'providerIdentifier',
  'currentPeriodStart',
  'currentPeriodEnd',
  'cancelAtPeriodEnd',
  'graceUntil',
  'createdAt',
  'updatedAt',
] as const;

/**
 * Memberships' subscriptions (docs/domain.md §22), each with its status now, its membership's interval and the price
 * it bills. They change only through their actions (cancel, refund a period), never by editing fields.
 */
export const subscriptions = defineResource({
  name: 'subscriptions',
  model: Subscription,
  read: STAFF,
  baseQuery: (db) =>
    Subscription.query(db)
      .join('products', 'products.id', 'subscriptions.productId')
      .join('prices', 'prices.id', 'subscriptions.priceId')
      .leftJoin('paymentPlans', 'paymentPlans.id', 'subscriptions.paymentPlanId')
      .select(
        ...SUBSCRIPTION_COLUMNS.map((c) => `subscriptions.${c}`),
        db.raw(`${STATUS_NOW} AS status`),
        'products.billingInterval as interval',
        'prices.unitAmount as amount',
        'prices.currency as currency',
        // A payment plan's instalments and how many are paid ("2 of 3 paid"); null for a membership.
        'subscriptions.paymentPlanId',
        'paymentPlans.instalments as instalments',
        db.raw(`CASE WHEN subscriptions.payment_plan_id IS NULL THEN NULL ELSE (SELECT count(*) FROM subscription_periods
          WHERE subscription_id = subscriptions.id AND outcome = 'paid')::int END AS "paidPeriods"`),
      ) as never,
  sqlColumns: {
    ...Object.fromEntries(SUBSCRIPTION_COLUMNS.map((field) => [field, `subscriptions.${field}`])),
    status: { expression: STATUS_NOW },
    interval: 'products.billingInterval',
    amount: 'prices.unitAmount',
  },
  filterable: {
    id: 'id',
    userId: 'id',
    productId: 'id',
    status: 'enum',
    interval: 'enum',
    cancelAtPeriodEnd: 'boolean',
    currentPeriodEnd: 'date',
    createdAt: 'date',
  },
  sortable: ['id', 'createdAt', 'currentPeriodEnd'],
  searchable: [],
  defaultSort: ['createdAt', 'DESC'],
  export: {
    lookups: [person('userId', 'subscriber'), productNamed('productId', 'product')],
    columns: [
      instant('Subscribed', 'createdAt'),
      text('Subscriber email', 'subscriberEmail'),
      text('Subscriber name', 'subscriberName'),
      text('Membership', 'product'),
      text('Status', 'status'),
      text('Interval', 'interval'),
      money('Amount', 'amount'),
      text('Currency', 'currency'),
      instant('Current period ends', 'currentPeriodEnd'),
      yesNo('Ends at period end', 'cancelAtPeriodEnd'),
      instant('Grace until', 'graceUntil'),
      derived('Instalments paid', (r) => (r.instalments == null ? null : `${r.paidPeriods} of ${r.instalments}`)),
      text('Subscription id', 'id'),
    ],
  },
});

const PERIOD_COLUMNS = [
  'id',
  'subscriptionId',
  'providerInvoiceIdentifier',
  'outcome',
  'periodStart',
  'periodEnd',
  'merchantChargeId',
  'invoiceId',
  'createdAt',
] as const;

/** Each billed period of a subscription: a trial's, a paid one with its charge (and what is refunded of it), a failure. */
export const subscriptionPeriods = defineResource({
  name: 'subscription-periods',
  model: SubscriptionPeriod,
  read: STAFF,
  baseQuery: (db) =>
    SubscriptionPeriod.query(db)
      .leftJoin('merchantCharges', 'merchantCharges.id', 'subscriptionPeriods.merchantChargeId')
      .select(
        ...PERIOD_COLUMNS.map((c) => `subscriptionPeriods.${c}`),
        'merchantCharges.amount as amount',
        db.raw('coalesce(merchant_charges.refund_amount, 0) AS "refundedAmount"'),
        'merchantCharges.currency as currency',
      ) as never,
  sqlColumns: {
    ...Object.fromEntries(PERIOD_COLUMNS.map((field) => [field, `subscriptionPeriods.${field}`])),
  },
  filterable: {
    id: 'id',
    subscriptionId: 'id',
    outcome: 'enum',
    merchantChargeId: 'id',
    periodStart: 'date',
    createdAt: 'date',
  },
  sortable: ['id', 'createdAt', 'periodStart'],
  searchable: [],
  defaultSort: ['periodStart', 'DESC'],
  export: {
    columns: [
      instant('Period start', 'periodStart'),
      instant('Period end', 'periodEnd'),
      text('Outcome', 'outcome'),
      money('Paid', 'amount'),
      money('Refunded', 'refundedAmount'),
      text('Currency', 'currency'),
      text('Invoice id', 'invoiceId'),
      text('Subscription id', 'subscriptionId'),
      text('Period id', 'id'),
    ],
  },
});
