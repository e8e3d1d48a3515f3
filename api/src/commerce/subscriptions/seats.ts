import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { AppError } from '../../shared/errors';
import { SUBSCRIPTION_STATUS_NOW } from '../../shared/subscription-status';
import type { BillingInterval } from '../../payments/provider';
import type { SubscriptionDeps } from './deps';
import { regionalAmount } from './next-charge';
import { refuseWhileSwitchWaits } from './waiting-switch';

/**
 * A team membership's seats (docs/domain.md §22): a subscription for N seats is its subscriber's and N − 1 others',
 * each taken through its invite link and open while the subscription is; its subscriber adds seats, the rest of the
 * period billed at once.
 */

export interface SeatsView {
  subscriptionId: string;
  quantity: number;
  /** Seats left to take (the subscriber holds one). */
  free: number;
  holders: { userId: string; email: string; takenAt: Date }[];
  /** What the invite link carries: `/subscription-seats/<code>`. */
  inviteCode: string;
}

interface SubscriptionFacts {
  id: string;
  userId: string;
  quantity: number;
  status: string;
  priceId: string;
  productId: string;
  providerIdentifier: string;
  seatCode: string | null;
  pppBp: number | null;
}

const NOT_FOUND = 'No such subscription.';

/** One of the subscriber's own subscriptions, with its status at `now`. */
async function ownSubscription(conn: Knex, userId: string, id: string, now: Date): Promise<SubscriptionFacts> {
  const row = (await conn('subscriptions as s')
    .where({ 's.id': id, 's.userId': userId })
    .first(
      's.id',
      's.userId',
      's.quantity',
      's.priceId',
      's.productId',
      's.providerIdentifier',
      's.seatCode',
      's.pppBp',
      conn.raw(`${SUBSCRIPTION_STATUS_NOW} AS status`, [now, now]),
    )) as SubscriptionFacts | undefined;
  if (!row) throw new AppError('not-found', NOT_FOUND);
  return row;
}

const holdersOf = (conn: Knex, subscriptionId: string) =>
  conn('subscriptionSeats as ss')
    .join('users as u', 'u.id', 'ss.userId')
    .where('ss.subscriptionId', subscriptionId)
    .orderBy('ss.createdAt')
    .select('ss.userId', 'u.email', 'ss.createdAt as takenAt') as Promise<SeatsView['holders']>;

/** The subscriber's seats: who holds them and the invite link's code (made the first time it is asked for). */
export async function seatsOf({ db, clock }: SubscriptionDeps, userId: string, id: string): Promise<SeatsView> {
  const sub = await ownSubscription(db, userId, id, clock.now());
  if (!sub.seatCode)
    // Conditional: two first asks at once keep one code.
    await db('subscriptions')
      .where({ id, seatCode: null })
      .update({ seatCode: randomBytes(12).toString('base64url') });
  const { seatCode } = (await db('subscriptions').where({ id }).first('seatCode')) as { seatCode: string };
  const holders = await holdersOf(db, id);
  return {
    subscriptionId: id,
    quantity: sub.quantity,
    free: sub.quantity - 1 - holders.length,
    holders,
    inviteCode: seatCode,
  };
}

/**
 * Takes a seat for `userId` through the invite link's code: refused once the seats are all taken, to the subscriber
 * (theirs is their own), and once the subscription has ended. The subscription's row is locked, so N people racing
 * for M free seats get M; taking a seat one already holds changes nothing.
 */
export async function takeSeat({ db, clock }: SubscriptionDeps, userId: string, code: string) {
  return db.transaction(async (trx) => {
    const sub = (await trx('subscriptions').where({ seatCode: code }).forUpdate().first('id')) as
      { id: string } | undefined;
    if (!sub)
      throw new AppError('coupon-not-found', 'This invite link is not valid. Ask its sender for the current one.');
    const now = clock.now();
    const facts = (await trx('subscriptions as s')
      .where('s.id', sub.id)
      .first('s.userId', 's.quantity', trx.raw(`${SUBSCRIPTION_STATUS_NOW} AS status`, [now, now]))) as {
      userId: string;
      quantity: number;
      status: string;
    };
    if (['canceled', 'lapsed'].includes(facts.status))
      throw new AppError('coupon-inactive', 'This membership has ended; ask its subscriber for a new invite.');
    if (facts.userId === userId)
      throw new AppError('already-subscribed', 'You hold this membership yourself: your seat is already yours.');
    const held = await trx('subscriptionSeats').where({ subscriptionId: sub.id, userId }).first('id');
    if (!held) {
      const [{ n }] = (await trx('subscriptionSeats').where({ subscriptionId: sub.id }).count({ n: '*' })) as [
        { n: string | number },
      ];
      if (Number(n) >= facts.quantity - 1)
        throw new AppError('coupon-used-up', 'Every seat of this membership is taken. Ask its subscriber to add one.');
      await trx('subscriptionSeats').insert({ subscriptionId: sub.id, userId });
    }
    return { subscriptionId: sub.id };
  });
}

/**
 * Adds `added` seats to the subscriber's team membership: the provider bills the rest of the period for them at once
 * (its invoice's event records the charge) and every later period for them all. Seat changes of one subscription run
 * one at a time (an advisory lock: the subscription's own row stays free for the provider's event meanwhile).
 */
export async function addSeats(deps: SubscriptionDeps, userId: string, id: string, added: number): Promise<SeatsView> {
  const { db, clock, provider } = deps;
  await db.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`subscription-seats:${id}`]);
    const sub = await ownSubscription(trx, userId, id, clock.now());
    const change = provider.subscriptions?.changePrice?.bind(provider.subscriptions);
    if (!change)
      throw new AppError('seats-not-available', 'Seats cannot be added on this site yet. Contact our support team.');
    if (!['trialing', 'active'].includes(sub.status))
      throw new AppError('subscription-not-renewable', 'Seats can be added only to a membership that is paid up.');
    await refuseWhileSwitchWaits(trx, id, clock.now());
    const quantity = sub.quantity + added;
    if (quantity > 100)
      throw new AppError('validation-failed', 'A membership has at most 100 seats.', { quantity: 'too many seats' });
    const { price, interval } = await priceOf(trx, sub);
    await change(sub.providerIdentifier, {
      amount: regionalAmount(price.unitAmount * quantity, sub.pppBp),
      currency: price.currency,
      interval,
      quantity,
      priceId: sub.priceId,
    });
    await trx('subscriptions').where({ id }).update({ quantity, updatedAt: clock.now() });
  });
  return seatsOf(deps, userId, id);
}

/** The price a subscription was sold at and its membership's interval: what each seat costs a period. */
async function priceOf(trx: Knex, sub: SubscriptionFacts) {
  const price = (await trx('prices').where({ id: sub.priceId }).first('unitAmount', 'currency', 'billingInterval')) as {
    unitAmount: number;
    currency: string;
    billingInterval: BillingInterval | null;
  };
  const product = (await trx('products').where({ id: sub.productId }).first('billingInterval')) as {
    billingInterval: BillingInterval;
  };
  return { price, interval: price.billingInterval ?? product.billingInterval };
}
