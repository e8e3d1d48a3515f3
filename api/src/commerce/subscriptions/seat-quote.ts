import { AppError } from '../../shared/errors';
import { unusedCredit } from '../../shared/proration';
import { SUBSCRIPTION_STATUS_NOW } from '../../shared/subscription-status';
import type { SubscriptionDeps } from './deps';
import { nextChargeAmount } from './next-charge';

/** What adding seats to a team membership costs, shown before the subscriber confirms (docs/domain.md §22). */
export interface SeatQuote {
  added: number;
  /** Charged at once: the added seats for the rest of the period, with the coupon and tax as on an invoice. */
  dueNow: number;
  /** Every later period, for all the seats. */
  eachPeriod: number;
  currency: string;
  periodEnd: Date;
}

/**
 * Prices `added` seats as the provider bills them: the new price's share of what is left of the period less the old
 * one's, then the subscription's coupon (while it has periods left) and tax on top, as its next charge takes them.
 */
export async function quoteSeats(
  { db, clock }: SubscriptionDeps,
  userId: string,
  id: string,
  added: number,
): Promise<SeatQuote> {
  const now = clock.now();
  const sub = (await db('subscriptions as s')
    .join('prices as p', 'p.id', 's.priceId')
    .where({ 's.id': id, 's.userId': userId })
    .first(
      's.id',
      's.quantity',
      's.couponId',
      's.pppBp',
      's.taxCountry',
      's.taxRegion',
      's.taxVatId',
      's.currentPeriodStart',
      's.currentPeriodEnd',
      'p.unitAmount',
      'p.currency',
      db.raw(`${SUBSCRIPTION_STATUS_NOW} AS status`, [now, now]),
    )) as
    | {
        id: string;
        quantity: number;
        couponId: string | null;
        pppBp: number | null;
        taxCountry: string | null;
        taxRegion: string | null;
        taxVatId: string | null;
        currentPeriodStart: Date;
        currentPeriodEnd: Date;
        unitAmount: number;
        currency: string;
        status: string;
      }
    | undefined;
  if (!sub) throw new AppError('not-found', 'No such subscription.');
  const quantity = sub.quantity + added;
  if (quantity > 100)
    throw new AppError('validation-failed', 'A membership has at most 100 seats.', { quantity: 'too many seats' });
  const period = { start: new Date(sub.currentPeriodStart), end: new Date(sub.currentPeriodEnd) };
  const rest =
    sub.status === 'trialing'
      ? 0
      : unusedCredit(sub.unitAmount * quantity, period, now) - unusedCredit(sub.unitAmount * sub.quantity, period, now);
  return {
    added,
    dueNow: rest > 0 ? await nextChargeAmount(db, sub, rest, sub.currency) : 0,
    eachPeriod: await nextChargeAmount(db, sub, sub.unitAmount * quantity, sub.currency),
    currency: sub.currency,
    periodEnd: sub.currentPeriodEnd,
  };
}
