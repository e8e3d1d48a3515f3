import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock';
import type { Db } from '../db/connection';
import { AppError } from '../shared/errors';
import { unusedCredit } from '../shared/proration';
import type { SubscriptionEvent, SubscriptionPriceChange } from './provider';
import { recordMovement, testProviderFee } from './test-provider-ledger';
import { periodCharge, useDiscountPeriod, type PeriodPricing } from './test-provider-period-price';
import { periodEnd } from './test-provider-subscriptions';

const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;

interface Row extends PeriodPricing {
  identifier: string;
  reference: string;
  status: string;
  interval: SubscriptionPriceChange['interval'];
  currency: string;
  customerEmail: string;
  customerIdentifier: string;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  metadata: Record<string, string>;
}

/** A quoted change billed otherwise (the period renewed or changed since) is refused before any money moves. */
function refuseUnquoted(quoted: NonNullable<SubscriptionPriceChange['quoted']>, charge: number, periodEnd: Date) {
  if (charge !== quoted.amount || periodEnd.getTime() !== new Date(quoted.periodEnd).getTime())
    throw new AppError('quote-changed', 'What this change costs has changed since it was quoted.');
}

/**
 * The test provider moves a subscription to another price (docs/domain.md §22): the unused part of the period paid is
 * credited and the new interval starts now, its price less that credit billed at once as a paid invoice (whose event
 * is answered). When the credit covers the new price (yearly to monthly early in the year), or during a trial, nothing
 * is billed now: the new price applies from the current period's end. A change of seats keeps the interval and the
 * period: the new price's share of what is left of it, less the old one's, is billed now (nothing for fewer seats).
 * What is billed now takes the coupon and the tax on top as any period's invoice does.
 */
export async function changeTestPrice(
  { db, clock }: { db: Db; clock: Clock },
  identifier: string,
  change: SubscriptionPriceChange,
): Promise<SubscriptionEvent | null> {
  return db.transaction(async (trx) => {
    const sub = (await trx('testProviderSubscriptions').where({ identifier }).forUpdate().first()) as Row | undefined;
    if (!sub) throw new AppError('not-found', 'No such test subscription.');
    if (sub.status !== 'active' && sub.status !== 'trialing')
      throw new AppError('subscription-past-due', 'This subscription cannot change its price now.');
    // A quoted change is prorated at the instant commerce quoted it, so both reckon the same credit.
    const now = change.quoted?.at ?? clock.now();
    // The price the current period was billed at: a change waiting for the period's end leaves it unchanged.
    const periodAmount = Number(sub.metadata.periodAmount ?? sub.amount);
    const metadata: Record<string, string> = {
      ...sub.metadata,
      priceId: change.priceId,
      quantity: String(change.quantity),
    };
    delete metadata.periodAmount;
    const terms = {
      amount: change.amount,
      interval: change.interval,
      quantity: change.quantity,
      metadata: JSON.stringify(metadata),
    };
    const period = { start: new Date(sub.currentPeriodStart), end: new Date(sub.currentPeriodEnd) };
    const sameInterval = change.interval === sub.interval;
    const due = sameInterval
      ? unusedCredit(change.amount, period, now) - unusedCredit(periodAmount, period, now)
      : change.amount - unusedCredit(periodAmount, period, now);
    const price = sub.status === 'trialing' || due <= 0 ? null : periodCharge({ ...sub, amount: due });
    if (change.quoted) refuseUnquoted(change.quoted, price?.amount ?? 0, period.end);
    if (!price) {
      // Applies from the period's end (the next renewal bills the new terms); until then it is credited as billed.
      const waiting = { ...metadata, periodAmount: String(periodAmount) };
      await trx('testProviderSubscriptions')
        .where({ identifier })
        .update({ ...terms, metadata: JSON.stringify(waiting) });
      return null;
    }
    const end = sameInterval ? period.end : periodEnd(now, change.interval);
    const chargeIdentifier = id('ch');
    const invoice = { identifier: id('in'), ...price, periodStart: now, periodEnd: end };
    await trx('testProviderSubscriptionInvoices').insert({
      ...invoice,
      subscriptionIdentifier: identifier,
      status: 'paid',
      currency: sub.currency,
      chargeIdentifier,
    });
    await recordMovement(trx, {
      kind: 'charge',
      sourceIdentifier: chargeIdentifier,
      chargeIdentifier,
      amount: price.amount,
      fee: testProviderFee(price.amount),
      currency: sub.currency,
    });
    await trx('testProviderSubscriptions')
      .where({ identifier })
      .update(sameInterval ? terms : { ...terms, currentPeriodStart: now, currentPeriodEnd: end });
    // A new interval starts a new period, billed now: it uses up one of the coupon's periods as a renewal does. Added
    // seats stay within the period they are billed in.
    if (!sameInterval) await useDiscountPeriod(trx, identifier);
    return {
      identifier,
      reference: sub.reference,
      metadata,
      customer: { identifier: sub.customerIdentifier, email: sub.customerEmail },
      invoice: {
        identifier: invoice.identifier,
        outcome: 'paid',
        periodStart: now,
        periodEnd: end,
        currency: sub.currency,
        charge: { identifier: chargeIdentifier, amount: price.amount, fee: testProviderFee(price.amount) },
        discountAmount: price.discountAmount,
        taxAmount: price.taxAmount,
      },
    };
  });
}
