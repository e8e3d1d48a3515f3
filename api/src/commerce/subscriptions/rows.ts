import type { Knex } from 'knex';
import { SUBSCRIPTION_STATUS_NOW } from '../../shared/subscription-status';
import { instalmentColumns } from '../payment-plans/subscription-columns';
import type { SubscriptionView } from './subscriptions.schemas';

/** The SQL of subscriptions: what a learner sees of theirs, and the row a change locks. */

const viewColumns = (conn: Knex, now: Date) => [
  's.id',
  's.productId',
  conn.raw(`${SUBSCRIPTION_STATUS_NOW} AS status`, [now, now]),
  's.currentPeriodEnd',
  's.cancelAtPeriodEnd',
  'p.name as productName',
  'p.slug as productSlug',
  ...instalmentColumns(conn),
];

/** A learner's subscriptions, newest first, each with its status at `now`. */
export function subscriptionsOf(conn: Knex, userId: string, now: Date): Promise<SubscriptionView[]> {
  return conn('subscriptions as s')
    .join('products as p', 'p.id', 's.productId')
    .leftJoin('paymentPlans as pp', 'pp.id', 's.paymentPlanId')
    .where('s.userId', userId)
    .orderBy('s.createdAt', 'desc')
    .orderBy('s.id')
    .select(viewColumns(conn, now));
}

/** One of the learner's subscriptions as they see it at `now`. */
export async function subscriptionOf(conn: Knex, userId: string, id: string, now: Date): Promise<SubscriptionView> {
  return conn('subscriptions as s')
    .join('products as p', 'p.id', 's.productId')
    .leftJoin('paymentPlans as pp', 'pp.id', 's.paymentPlanId')
    .where({ 's.id': id, 's.userId': userId })
    .first(viewColumns(conn, now));
}

/** Whether the learner has ever subscribed (the storefront's account menu then links their subscriptions). */
export async function hasSubscriptions(conn: Knex, userId: string): Promise<boolean> {
  return Boolean(await conn('subscriptions').where({ userId }).first('id'));
}

/** Whether the learner holds a subscription to the product that is not over at `now`. */
export async function holdsLiveSubscription(conn: Knex, userId: string, productId: string, now: Date) {
  const row = await conn('subscriptions as s')
    .where({ 's.userId': userId, 's.productId': productId })
    .whereRaw(`${SUBSCRIPTION_STATUS_NOW} NOT IN ('canceled', 'lapsed')`, [now, now])
    .first('s.id');
  return Boolean(row);
}
