import type { Knex } from 'knex';
import type { BillingInterval } from '../../payments/provider';
import { unusedCredit } from '../../shared/proration';
import { AppError } from '../../shared/errors';
import { SUBSCRIPTION_STATUS_NOW, type SubscriptionStatus } from '../../shared/subscription-status';
import type { SubscriptionDeps } from './deps';
import { nextChargeAmount, regionalAmount } from './next-charge';
import { intervalPricesOf, priceForInterval, type IntervalPrice } from './interval-price';
import type { BillingView } from './subscriptions.schemas';

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

async function held(conn: Knex, userId: string, id: string, now: Date): Promise<Held> {
  const sub = (await conn('subscriptions as s')
    .where({ 's.id': id, 's.userId': userId })
    .first('s.*', conn.raw(`${SUBSCRIPTION_STATUS_NOW} AS status`, [now, now]))) as Held | undefined;
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

/** What a switch to `to` costs now: the unused part of the period credited, the new interval's price less it. */
function switchQuote(sub: Held, current: IntervalPrice | undefined, to: IntervalPrice, now: Date) {
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
  const dueNow = sub.status === 'trialing' ? 0 : Math.max(0, amount - credit);
  return { interval: to.billingInterval, amount, currency: to.currency, credit, dueNow, startsNow: dueNow > 0 };
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
  return {
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
        ? switchQuote(sub, billedPrice(sub, prices), other, now)
        : null,
  };
}

/**
 * Switches a membership to its monthly or yearly price (docs/domain.md §22), prorated by the provider: the unused part
 * of the period paid is credited and the rest of the new price billed now, the new interval starting now; when the
 * credit covers it, the new price applies from the period's end. Refused while a payment is owed (past due or lapsed)
 * and once the subscription ends.
 */
export async function switchInterval(
  deps: SubscriptionDeps,
  userId: string,
  id: string,
  interval: BillingInterval,
): Promise<BillingView> {
  const { db, clock, provider } = deps;
  const sub = await held(db, userId, id, clock.now());
  if (sub.paymentPlanId) throw new AppError('not-a-membership', 'A payment plan is paid as it was agreed.');
  if (sub.status === 'past_due' || sub.status === 'lapsed')
    throw new AppError('subscription-past-due', 'Your last payment failed: update your card before switching.');
  if (sub.status === 'canceled' || sub.cancelAtPeriodEnd)
    throw new AppError('subscription-ending', 'This subscription ends at its period’s end: resume it to switch.');
  const to = await priceForInterval(db, sub.productId, interval);
  if (to.id === sub.priceId) return billingOf(deps, userId, id);
  const changePrice = provider.subscriptions?.changePrice;
  if (!changePrice) throw new AppError('interval-not-offered', 'Switching is not available on this site yet.');
  const seats = sub.quantity ?? 1;
  // The provider first (what it bills decides), then our record of the price; a paid difference arrives as its event.
  await changePrice.call(provider.subscriptions, sub.providerIdentifier, {
    amount: regionalAmount(to.unitAmount * seats, sub.pppBp),
    currency: to.currency,
    interval,
    quantity: seats,
    priceId: to.id,
  });
  await db('subscriptions').where({ id: sub.id }).update({ priceId: to.id, updatedAt: clock.now() });
  return billingOf(deps, userId, id);
}
