import type { Knex } from 'knex';
import type { BillingInterval, SubscriptionPriceChange } from '../../payments/provider';
import { AppError } from '../../shared/errors';
import type { SubscriptionDeps } from './deps';
import { regionalAmount } from './next-charge';
import type { BillingView } from './subscriptions.schemas';

/**
 * A switch of interval waiting for the period's end (docs/domain.md §22): one with nothing to pay now (the credit
 * covers the new price, or a trial). The subscription's price moves at once (its next charge is the new price), and
 * `switchAt` with `switchedFromPriceId` keep the end it waits for and the price the period was billed at. It has
 * happened once the recorded period starts at or after that end, whichever of the provider's events moved it there, so
 * no event has to clear it, in whatever order they come.
 */

interface Row {
  id: string;
  priceId: string;
  providerIdentifier: string;
  quantity: number | null;
  pppBp: number | null;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  switchAt: Date | null;
  switchedFromPriceId: string | null;
}

interface PriceRow {
  id: string;
  unitAmount: number;
  currency: string;
  billingInterval: BillingInterval;
}

const COLUMNS = [
  'id',
  'priceId',
  'providerIdentifier',
  'quantity',
  'pppBp',
  'currentPeriodStart',
  'currentPeriodEnd',
  'switchAt',
  'switchedFromPriceId',
] as const;

const NONE_WAITING = { switchAt: null, switchedFromPriceId: null };

/**
 * The price the current period was billed at while a switch waits for its end; null when none waits: its period has
 * started, or its day has come (the renewal owed then bills the new price, whatever it says of the card).
 */
const waitingFrom = (sub: Row, now: Date): string | null =>
  sub.switchAt && new Date(sub.currentPeriodStart) < new Date(sub.switchAt) && now < new Date(sub.switchAt)
    ? sub.switchedFromPriceId
    : null;

const rowOf = async (conn: Knex, id: string) =>
  (await conn('subscriptions')
    .where({ id })
    .first(...COLUMNS)) as Row | undefined;

const priceOf = async (conn: Knex, id: string) =>
  (await conn('prices').where({ id }).first('id', 'unitAmount', 'currency', 'billingInterval')) as PriceRow;

/** The terms a price bills the subscription at: its seats at its regional price. */
const termsOf = (sub: Row, price: PriceRow): SubscriptionPriceChange => ({
  amount: regionalAmount(price.unitAmount * (sub.quantity ?? 1), sub.pppBp),
  currency: price.currency,
  interval: price.billingInterval,
  quantity: sub.quantity ?? 1,
  priceId: price.id,
});

/**
 * Moves the subscription to `to` from its period's end, nothing billed now: the provider first (what it bills
 * decides), then our record, keeping the price the period was billed at (the first one, when a switch waited already).
 */
export async function switchAtPeriodEnd(deps: SubscriptionDeps, id: string, to: PriceRow): Promise<void> {
  const { db, clock, provider } = deps;
  const schedule = provider.subscriptions?.changePriceAtPeriodEnd;
  if (!schedule)
    throw new AppError('switch-at-period-end-unavailable', 'This switch can be made only at the end of the period.');
  const sub = (await rowOf(db, id))!;
  await schedule.call(provider.subscriptions, sub.providerIdentifier, termsOf(sub, to));
  await db('subscriptions')
    .where({ id })
    .update({
      priceId: to.id,
      switchAt: sub.currentPeriodEnd,
      switchedFromPriceId: waitingFrom(sub, clock.now()) ?? sub.priceId,
      updatedAt: clock.now(),
    });
}

/**
 * Drops the switch waiting for the period's end, if one waits: the provider renews at the price the period was billed
 * at, and so does our record. Answers whether one waited.
 */
export async function dropWaitingSwitch(deps: SubscriptionDeps, id: string): Promise<boolean> {
  const { db, clock, provider } = deps;
  const sub = await rowOf(db, id);
  const from = sub && waitingFrom(sub, clock.now());
  if (!sub || !from) return false;
  const price = await priceOf(db, from);
  await provider.subscriptions?.keepPrice?.(sub.providerIdentifier, termsOf(sub, price));
  // Conditional: a period that moved on meanwhile has made the switch, and keeps it.
  await db('subscriptions')
    .where({ id, switchAt: sub.switchAt! })
    .where('currentPeriodStart', '<', sub.switchAt!)
    .update({ priceId: from, ...NONE_WAITING, updatedAt: clock.now() });
  return true;
}

/** The interval the period was billed at while a switch waits for its end (switching to it undoes that); else null. */
export async function intervalWaitedFrom(conn: Knex, id: string, now: Date): Promise<BillingInterval | null> {
  const sub = await rowOf(conn, id);
  const from = sub && waitingFrom(sub, now);
  return from ? (await priceOf(conn, from)).billingInterval : null;
}

/** Whether switching to `interval` undoes a waiting switch (it is the interval the period was billed at): undone. */
export async function undoesWaitingSwitch(
  deps: SubscriptionDeps,
  id: string,
  interval: BillingInterval,
): Promise<boolean> {
  const sub = await rowOf(deps.db, id);
  const from = sub && waitingFrom(sub, deps.clock.now());
  if (!from || (await priceOf(deps.db, from)).billingInterval !== interval) return false;
  return dropWaitingSwitch(deps, id);
}

/** Refuses a change of seats while a switch waits: it would be billed at the price waiting, not the one paid. */
export async function refuseWhileSwitchWaits(conn: Knex, id: string, now: Date): Promise<void> {
  const sub = await rowOf(conn, id);
  if (sub && waitingFrom(sub, now))
    throw new AppError(
      'seats-not-available',
      'A switch of your plan waits for the end of this period: undo it to add seats now, or add them after it.',
    );
}

/**
 * The Billing page's view with a waiting switch: the plan is the one billed now, the switch waiting is shown (its
 * interval, price and day) where the switch to the other interval would be, and switching back undoes it.
 */
export async function withWaitingSwitch(
  conn: Knex,
  view: Omit<BillingView, 'scheduledSwitch'>,
  now: Date,
): Promise<BillingView> {
  const sub = await rowOf(conn, view.id);
  const from = sub && waitingFrom(sub, now);
  if (!sub || !from) return { ...view, scheduledSwitch: null };
  const [billed, next] = [await priceOf(conn, from), await priceOf(conn, sub.priceId)];
  const { amount, currency, interval } = termsOf(sub, next);
  return {
    ...view,
    interval: billed.billingInterval,
    switch: null,
    scheduledSwitch: { interval, amount, currency, on: sub.switchAt! },
  };
}

/**
 * The provider says no switch waits any more for the subscription (Stripe: its schedule was released or cancelled
 * before the second phase started, as from its dashboard): a switch we recorded as waiting is dropped, the period's end
 * renewing at the price it was billed at. One conditional statement, so a repeated event, or one at two replicas at
 * once, changes it once; one made already (its period started) stays made.
 */
export async function recordNoWaitingSwitch(
  { db, clock }: Pick<SubscriptionDeps, 'db' | 'clock'>,
  accountId: string,
  providerIdentifier: string,
): Promise<{ recorded: boolean }> {
  const changed = await db('subscriptions')
    .where({ merchantAccountId: accountId, providerIdentifier })
    .whereNotNull('switchAt')
    .whereRaw('current_period_start < switch_at')
    .where('switchAt', '>', clock.now())
    .update({ priceId: db.ref('switchedFromPriceId'), ...NONE_WAITING, updatedAt: clock.now() });
  return { recorded: changed > 0 };
}
