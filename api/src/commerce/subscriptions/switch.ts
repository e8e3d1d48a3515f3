import type { Knex } from 'knex';
import type { BillingInterval } from '../../payments/provider';
import { unusedCredit } from '../../shared/proration';
import { AppError } from '../../shared/errors';
import { SUBSCRIPTION_STATUS_NOW, type SubscriptionStatus } from '../../shared/subscription-status';
import type { SubscriptionDeps } from './deps';
import { chargeBreakdown, nextChargeAmount, regionalAmount } from './next-charge';
import { intervalPricesOf, priceForInterval, type IntervalPrice } from './interval-price';
import type { BillingView } from './subscriptions.schemas';
import { intervalWaitedFrom, switchAtPeriodEnd, undoesWaitingSwitch, withWaitingSwitch } from './waiting-switch';

interface Held {
  id: string;
  productId: string;
  priceId: string;
  providerIdentifier: string;
  status: SubscriptionStatus;
  cancelAtPeriodEnd: boolean;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  quantity: number | null;
  paymentPlanId: string | null;
  couponId: string | null;
  pppBp: number | null;
  taxCountry: string | null;
  taxRegion: string | null;
  taxVatId: string | null;
}

/** The learner's subscription with its status at `now`; locked when `lock` (a switch decides under it). */
async function held(conn: Knex, userId: string, id: string, now: Date, lock = false): Promise<Held> {
  const query = conn('subscriptions as s')
    .where({ 's.id': id, 's.userId': userId })
    .first('s.*', conn.raw(`${SUBSCRIPTION_STATUS_NOW} AS status`, [now, now]));
  const sub = (await (lock ? query.forUpdate() : query)) as Held | undefined;
  if (!sub) throw new AppError('not-found', 'No such subscription.');
  return sub;
}

/** A period longer than any month was billed as a year. */
const YEARLY_PERIOD_MS = 32 * 86_400_000;

/**
 * The price the current period was billed at: the one of its length's interval. A switch from the period's end has
 * already moved the subscription's price on, but the period paid is still the one credited.
 */
function billedPrice(sub: Held, prices: IntervalPrice[]): IntervalPrice | undefined {
  const length = new Date(sub.currentPeriodEnd).getTime() - new Date(sub.currentPeriodStart).getTime();
  const interval: BillingInterval = length > YEARLY_PERIOD_MS ? 'year' : 'month';
  return prices.find((p) => p.billingInterval === interval) ?? prices.find((p) => p.id === sub.priceId);
}

type SwitchQuote = NonNullable<BillingView['switch']>;

/**
 * What a switch to `to` costs now: the unused part of the period credited, the new interval's price less it, charged
 * as the provider charges it (its coupon while it has periods left, then tax inside or on top): the amount quoted is
 * the amount charged.
 */
async function switchQuote(
  conn: Knex,
  sub: Held,
  current: IntervalPrice | undefined,
  to: IntervalPrice,
  now: Date,
): Promise<SwitchQuote> {
  const seats = sub.quantity ?? 1;
  // Both prices at the subscription's regional price, as the provider bills them.
  const amount = regionalAmount(to.unitAmount * seats, sub.pppBp);
  const credit =
    sub.status === 'trialing' || !current
      ? 0
      : unusedCredit(
          regionalAmount(current.unitAmount * seats, sub.pppBp),
          { start: new Date(sub.currentPeriodStart), end: new Date(sub.currentPeriodEnd) },
          now,
        );
  const difference = sub.status === 'trialing' ? 0 : Math.max(0, amount - credit);
  const charged = difference > 0 ? await chargeBreakdown(conn, sub, difference, to.currency) : null;
  return {
    interval: to.billingInterval,
    amount,
    currency: to.currency,
    credit,
    discount: charged?.discount ?? 0,
    tax: charged?.tax ?? null,
    dueNow: charged?.total ?? 0,
    startsNow: difference > 0,
  };
}

/**
 * A membership's billing as the Billing page shows it (docs/domain.md §22): its interval, the next charge (the
 * price each period, for its seats; a coupon or tax may change the invoice) and what switching to its other interval
 * would cost now.
 */
export async function billingOf({ db, clock }: SubscriptionDeps, userId: string, id: string): Promise<BillingView> {
  const now = clock.now();
  const sub = await held(db, userId, id, now);
  const prices = await intervalPricesOf(db, sub.productId);
  // Its own price whatever its status: a retired one still bills it (and another interval may be offered).
  const current =
    prices.find((p) => p.id === sub.priceId) ??
    ((await db('prices')
      .where({ id: sub.priceId })
      .whereNotNull('billingInterval')
      .first('id', 'unitAmount', 'currency', 'billingInterval')) as IntervalPrice | undefined);
  const other = current && prices.find((p) => p.billingInterval !== current.billingInterval);
  const renews = ['trialing', 'active', 'past_due'].includes(sub.status) && !sub.cancelAtPeriodEnd;
  const seats = sub.quantity ?? 1;
  return withWaitingSwitch(
    db,
    {
      id: sub.id,
      interval: current?.billingInterval ?? null,
      nextCharge:
        renews && current
          ? {
              amount: await nextChargeAmount(db, sub, current.unitAmount * seats, current.currency),
              currency: current.currency,
              on: sub.currentPeriodEnd,
            }
          : null,
      switch:
        other && ['trialing', 'active'].includes(sub.status) && !sub.cancelAtPeriodEnd
          ? await switchQuote(db, sub, billedPrice(sub, prices), other, now)
          : null,
    },
    now,
  );
}

/**
 * Decides a switch under the subscription's row lock, before the provider hears of it: refused while a payment is owed
 * (past due or lapsed), once the subscription ends, when what it would charge now is not what the learner was quoted
 * (`quote-changed`), and when a paid period already starts at this instant (the renewal got there first: the switch's
 * charge would start that period again). Answers the price switched to and what the provider is to bill, or null when
 * the subscription is at that price already.
 */
async function decideSwitch(
  deps: SubscriptionDeps,
  userId: string,
  id: string,
  interval: BillingInterval,
  quotedDueNow: number | undefined,
  now: Date,
) {
  return deps.db.transaction(async (trx) => {
    const sub = await held(trx, userId, id, now, true);
    if (sub.paymentPlanId) throw new AppError('not-a-membership', 'A payment plan is paid as it was agreed.');
    if (sub.status === 'past_due' || sub.status === 'lapsed')
      throw new AppError('subscription-past-due', 'Your last payment failed: update your card before switching.');
    if (sub.status === 'canceled' || sub.cancelAtPeriodEnd)
      throw new AppError('subscription-ending', 'This subscription ends at its period’s end: resume it to switch.');
    const to = await priceForInterval(trx, sub.productId, interval);
    if (to.id === sub.priceId) return null;
    // Back to the interval billed now while a switch waits: undone, nothing charged, so nothing to compare.
    const undo = (await intervalWaitedFrom(trx, sub.id, now)) === interval;
    const quote = await switchQuote(trx, sub, billedPrice(sub, await intervalPricesOf(trx, sub.productId)), to, now);
    if (!undo && quotedDueNow !== undefined && quotedDueNow !== quote.dueNow) throw quoteChanged(quote.dueNow);
    if (!undo && quote.startsNow && (await paidPeriodStarting(trx, sub.id, now)))
      throw new AppError('subscription-renewing', 'Your membership renewed this very moment: try the switch again.');
    return { sub, to, quote, undo };
  });
}

const quoteChanged = (dueNow: number) =>
  new AppError('quote-changed', 'What the switch costs has changed: check the new amount and confirm again.', {
    dueNow: `now ${dueNow}`,
  });

const paidPeriodStarting = (conn: Knex, subscriptionId: string, at: Date) =>
  conn('subscriptionPeriods').where({ subscriptionId, outcome: 'paid', periodStart: at }).first('id');

/**
 * Switches a membership to its monthly or yearly price (docs/domain.md §22), prorated by the provider: the unused part
 * of the period paid is credited and the rest of the new price billed now, the new interval starting now; when the
 * credit covers it, the new price applies from the period's end. Decided first under the subscription's lock (above);
 * the provider then bills exactly the amount quoted, or refuses and bills nothing when its period moved on meanwhile.
 */
export async function switchInterval(
  deps: SubscriptionDeps,
  userId: string,
  id: string,
  interval: BillingInterval,
  quotedDueNow?: number,
): Promise<BillingView> {
  const { db, clock, provider } = deps;
  const now = clock.now();
  const changePrice = provider.subscriptions?.changePrice;
  const decided = await decideSwitch(deps, userId, id, interval, quotedDueNow, now);
  if (!decided) return billingOf(deps, userId, id);
  if (!changePrice) throw new AppError('interval-not-offered', 'Switching is not available on this site yet.');
  const { sub, to, quote, undo } = decided;
  // Back to the interval billed now while a switch waits for the period's end: that switch is undone, nothing billed.
  // One whose day came meanwhile is made: switching back now is a charged switch, never made without its quote.
  if (undo) {
    if (await undoesWaitingSwitch(deps, sub.id, interval)) return billingOf(deps, userId, id);
    throw quoteChanged(quote.dueNow);
  }
  // Nothing to pay now (the credit covers it, or a trial): the new price waits for the period's end.
  if (!quote.startsNow) {
    await switchAtPeriodEnd(deps, sub.id, to);
    return billingOf(deps, userId, id);
  }
  // The provider first (what it bills decides), then our record of the price; a paid difference arrives as its event.
  await changePrice.call(provider.subscriptions, sub.providerIdentifier, {
    amount: quote.amount,
    currency: to.currency,
    interval,
    quantity: sub.quantity ?? 1,
    priceId: to.id,
    quoted: { amount: quote.dueNow, at: now, periodEnd: new Date(sub.currentPeriodEnd) },
  });
  await db('subscriptions').where({ id: sub.id }).update({ priceId: to.id, updatedAt: clock.now() });
  return billingOf(deps, userId, id);
}
