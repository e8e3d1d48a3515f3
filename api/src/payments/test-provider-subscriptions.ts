import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db/connection';
import { AppError } from '../shared/errors';
import type { BillingInterval, SubscriptionBilling, SubscriptionEvent, SubscriptionRequest } from './provider';
import { recordMovement, testProviderFee } from './test-provider-ledger';
import { periodCharge, pricingColumnsOf, useDiscountPeriod, type PeriodPricing } from './test-provider-period-price';

export const TEST_SUBSCRIPTION_PATH = '/test-provider/subscriptions';

const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;

/** The end of a period of `interval` starting at `start` (a month from the 31st ends on the next month's last day). */
export function periodEnd(start: Date, interval: BillingInterval): Date {
  const end = new Date(start);
  const day = end.getUTCDate();
  end.setUTCDate(1);
  if (interval === 'month') end.setUTCMonth(end.getUTCMonth() + 1);
  else end.setUTCFullYear(end.getUTCFullYear() + 1);
  const lastDay = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
  end.setUTCDate(Math.min(day, lastDay));
  return end;
}

interface SubscriptionRow extends PeriodPricing {
  identifier: string;
  reference: string;
  status: 'incomplete' | 'trialing' | 'active' | 'past_due' | 'canceled';
  amount: number;
  currency: string;
  interval: BillingInterval;
  trialDays: number;
  description: string;
  customerEmail: string;
  customerIdentifier: string | null;
  successUrl: string;
  cancelUrl: string;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  /** The card on file was declined (a failed renewal); a retry fails too until a card that works is set. */
  cardDeclined: boolean;
  metadata: Record<string, string>;
  /** A payment plan's instalments: it ends by itself once this many periods are paid (null: until cancelled). */
  iterations: number | null;
}

interface InvoiceRow {
  identifier: string;
  status: 'trial' | 'paid' | 'failed';
  amount: number;
  discountAmount: number;
  taxAmount: number;
  currency: string;
  chargeIdentifier: string | null;
  periodStart: Date;
  periodEnd: Date;
}

/** An invoice of the subscription as the event a real provider would send for it. */
const eventOf = (sub: SubscriptionRow, invoice: InvoiceRow): SubscriptionEvent => ({
  identifier: sub.identifier,
  reference: sub.reference,
  metadata: sub.metadata,
  customer: { identifier: sub.customerIdentifier!, email: sub.customerEmail },
  invoice: {
    identifier: invoice.identifier,
    outcome: invoice.status,
    periodStart: new Date(invoice.periodStart),
    periodEnd: new Date(invoice.periodEnd),
    currency: invoice.currency,
    charge: invoice.chargeIdentifier
      ? { identifier: invoice.chargeIdentifier, amount: invoice.amount, fee: testProviderFee(invoice.amount) }
      : null,
    discountAmount: invoice.discountAmount,
    taxAmount: invoice.taxAmount,
  },
});

/** Whether a payment plan's subscription has been paid its every instalment (a membership's never has). */
async function paidAll(trx: Knex.Transaction, sub: SubscriptionRow): Promise<boolean> {
  if (sub.iterations === null) return false;
  const [{ n }] = (await trx('testProviderSubscriptionInvoices')
    .where({ subscriptionIdentifier: sub.identifier, status: 'paid' })
    .count({ n: '*' })) as [{ n: string | number }];
  return Number(n) >= sub.iterations;
}

/** Bills one period: a paid invoice takes the money (a charge, a movement of the balance), a failed one does not. */
async function bill(
  trx: Knex.Transaction,
  sub: SubscriptionRow,
  invoice: { status: InvoiceRow['status']; periodStart: Date; periodEnd: Date; idempotencyKey: string | null },
): Promise<InvoiceRow> {
  const paid = invoice.status === 'paid';
  const price = invoice.status === 'trial' ? { amount: 0, discountAmount: 0, taxAmount: 0 } : periodCharge(sub);
  const [row] = (await trx('testProviderSubscriptionInvoices')
    .insert({
      identifier: id('in'),
      subscriptionIdentifier: sub.identifier,
      idempotencyKey: invoice.idempotencyKey,
      status: invoice.status,
      ...price,
      currency: sub.currency,
      chargeIdentifier: paid ? id('ch') : null,
      periodStart: invoice.periodStart,
      periodEnd: invoice.periodEnd,
    })
    .returning('*')) as InvoiceRow[];
  if (paid) await useDiscountPeriod(trx, sub.identifier);
  if (paid)
    await recordMovement(trx, {
      kind: 'charge',
      sourceIdentifier: row!.chargeIdentifier!,
      chargeIdentifier: row!.chargeIdentifier!,
      amount: row!.amount,
      fee: testProviderFee(row!.amount),
      currency: row!.currency,
    });
  return row!;
}

/**
 * The test provider's subscriptions, kept in its own tables: subscribed on its hosted page (its first period paid,
 * or a trial's), and renewed whenever anyone asks, paid or failed, so a membership's whole life runs without Stripe.
 * Each step answers the event a real provider would send.
 */
export function testProviderSubscriptions({
  db,
  clock,
  config,
}: {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'publicUrl'>;
}): SubscriptionBilling & {
  page(
    identifier: string,
  ): Promise<
    Pick<SubscriptionRow, 'description' | 'amount' | 'currency' | 'interval' | 'trialDays' | 'status' | 'customerEmail'>
  >;
  subscribe(identifier: string): Promise<{ redirect: string; event: SubscriptionEvent | null }>;
  abandon(identifier: string): Promise<{ redirect: string }>;
  renew(reference: string, outcome: 'paid' | 'failed', idempotencyKey: string | null): Promise<SubscriptionEvent>;
  retryOwed(identifier: string): Promise<SubscriptionEvent | null>;
} {
  async function find(conn: Knex, where: Partial<SubscriptionRow>, lock = false): Promise<SubscriptionRow> {
    const query = conn('testProviderSubscriptions').where(where).first();
    const row = (await (lock ? query.forUpdate() : query)) as SubscriptionRow | undefined;
    if (!row) throw new AppError('not-found', 'No such test subscription.');
    return row;
  }

  return {
    async createSubscription(request: SubscriptionRequest) {
      const identifier = id('sub');
      await db('testProviderSubscriptions').insert({
        identifier,
        reference: request.reference,
        status: 'incomplete',
        amount: request.amount,
        currency: request.currency,
        interval: request.interval,
        trialDays: request.trialDays,
        description: request.description,
        customerEmail: request.customerEmail,
        successUrl: request.successUrl,
        cancelUrl: request.cancelUrl,
        metadata: JSON.stringify(request.metadata),
        ...pricingColumnsOf(request),
        iterations: request.iterations ?? null,
      });
      return { identifier, url: new URL(`${TEST_SUBSCRIPTION_PATH}/${identifier}`, config.publicUrl).toString() };
    },

    async cancelAtPeriodEnd(identifier: string, cancel: boolean) {
      await db('testProviderSubscriptions').where({ identifier }).update({ cancelAtPeriodEnd: cancel });
    },

    /** Ends the subscription now: no further period is billed (a renewal is refused). */
    async cancelNow(identifier: string) {
      await db('testProviderSubscriptions').where({ identifier }).update({ status: 'canceled' });
    },

    async page(identifier: string) {
      const { description, amount, currency, interval, trialDays, status, customerEmail } = await find(db, {
        identifier,
      });
      return { description, amount, currency, interval, trialDays, status, customerEmail };
    },

    /** The buyer subscribes: the first period starts now, a trial's free, else paid. A second click changes nothing. */
    async subscribe(identifier: string) {
      return db.transaction(async (trx) => {
        const sub = await find(trx, { identifier }, true);
        if (sub.status !== 'incomplete') return { redirect: sub.successUrl, event: null };
        const start = clock.now();
        const trial = sub.trialDays > 0;
        const end = trial ? new Date(start.getTime() + sub.trialDays * 86_400_000) : periodEnd(start, sub.interval);
        const [started] = (await trx('testProviderSubscriptions')
          .where({ identifier })
          .update({
            status: trial ? 'trialing' : 'active',
            customerIdentifier: id('cus'),
            currentPeriodStart: start,
            currentPeriodEnd: end,
          })
          .returning('*')) as SubscriptionRow[];
        const invoice = await bill(trx, started!, {
          status: trial ? 'trial' : 'paid',
          periodStart: start,
          periodEnd: end,
          idempotencyKey: null,
        });
        return { redirect: sub.successUrl, event: eventOf(started!, invoice) };
      });
    },

    async abandon(identifier: string) {
      const sub = await find(db, { identifier });
      await db('testProviderSubscriptions').where({ identifier, status: 'incomplete' }).update({ status: 'canceled' });
      return { redirect: sub.cancelUrl };
    },

    /**
     * Bills the next period now: paid moves the subscription on a period, failed leaves it past due (the same period
     * is billed again next time). The same idempotency key answers the same invoice again; renewals at once queue on
     * the subscription's row, and a period is paid once (a unique index).
     */
    async renew(reference: string, outcome: 'paid' | 'failed', idempotencyKey: string | null) {
      return db.transaction(async (trx) =>
        renewLocked(trx, await find(trx, { reference }, true), outcome, idempotencyKey),
      );
    },

    /**
     * Bills a past-due subscription's owed period again with the card on file (declined: failed), checked under the
     * row's lock so that retries at once (the card page beside the dunning sweep, a double click) bill it once and
     * never the period after. Null when nothing is owed.
     */
    async retryOwed(identifier: string) {
      return db.transaction(async (trx) => {
        const sub = await find(trx, { identifier }, true);
        if (sub.status !== 'past_due') return null;
        return renewLocked(trx, sub, sub.cardDeclined ? 'failed' : 'paid', null);
      });
    },
  };

  async function renewLocked(
    trx: Knex.Transaction,
    sub: SubscriptionRow,
    outcome: 'paid' | 'failed',
    idempotencyKey: string | null,
  ) {
    if (idempotencyKey) {
      const earlier = (await trx('testProviderSubscriptionInvoices')
        .where({ idempotencyKey, subscriptionIdentifier: sub.identifier })
        .first()) as InvoiceRow | undefined;
      if (earlier) return eventOf(sub, earlier);
    }
    if (!['trialing', 'active', 'past_due'].includes(sub.status) || sub.cancelAtPeriodEnd)
      throw new AppError('subscription-not-renewable', 'This subscription does not renew.');
    const start = sub.currentPeriodEnd!;
    const end = periodEnd(start, sub.interval);
    const invoice = await bill(trx, sub, { status: outcome, periodStart: start, periodEnd: end, idempotencyKey });
    // A payment plan's last instalment ends it: nothing more is billed.
    const last = outcome === 'paid' && (await paidAll(trx, sub));
    const [after] = (await trx('testProviderSubscriptions')
      .where({ identifier: sub.identifier })
      .update(
        outcome === 'paid'
          ? {
              status: last ? 'canceled' : 'active',
              currentPeriodStart: start,
              currentPeriodEnd: end,
              // The new period is billed at the terms in force: a change waiting for it has now applied.
              metadata: trx.raw(`metadata - 'periodAmount'`),
            }
          : { status: 'past_due' },
      )
      .returning('*')) as SubscriptionRow[];
    return eventOf(after!, invoice);
  }
}

export type TestProviderSubscriptions = ReturnType<typeof testProviderSubscriptions>;
