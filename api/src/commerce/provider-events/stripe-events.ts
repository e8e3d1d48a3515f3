import type Stripe from 'stripe';
import type { Knex } from 'knex';
import type { Db } from '../../db/connection';
import type { Logger } from '../../logger';
import { refundSettlementOf } from '../../payments/stripe-provider';
import { verifiedStripeEvent, type StripeWebhookConfig } from '../../payments/stripe-signature';
import { AppError } from '../../shared/errors';
import { groupCommit } from '../../shared/group-commit';
import type { Alongside, CheckoutService } from '../checkout/checkout';
import type { EventKey } from '../checkout/checkout-rows';
import type { DisputeFields } from '../purchases/disputes';
import type { PurchaseLifecycle } from '../purchases/lifecycle';
import type { SubscriptionService } from '../subscriptions/subscriptions';
import { handleBillingEvent, isBillingEvent, isSubscriptionCheckout } from './stripe-billing-events';

interface Deps {
  db: Db;
  logger: Logger;
  /** Absent when Stripe is not configured: every delivery is then refused. */
  stripe: StripeWebhookConfig | null;
  checkouts: CheckoutService;
  lifecycle: PurchaseLifecycle;
  /** Memberships' subscriptions, which Stripe Billing's events record. */
  subscriptions: Pick<SubscriptionService, 'recordEvent' | 'recordState' | 'recordNoWaitingSwitch'>;
}

export interface WebhookOutcome {
  received: true;
  /** Already processed under this event id: nothing was done again. */
  duplicate?: true;
  /** A type we do not act on. */
  ignored?: true;
}

const idOf = (value: string | { id: string }): string => (typeof value === 'string' ? value : value.id);

/**
 * The most events one batch of fulfilments takes, how many batches run at once, and how many events may wait for
 * them (docs/domain.md §6.2): beyond that an event is refused (503) and Stripe delivers it again later.
 */
const BATCHES = {
  max: 50,
  runners: 2,
  joinAt: 12,
  waitingAtMost: 500,
  full: () => new AppError('service-unavailable', 'Too many payment events waiting; deliver this one again later.'),
};

/** The events that settle a checkout (fulfil or cancel it): a one-time purchase's, not a subscription's. */
const SETTLING = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.expired',
]);
const settlesCheckout = (event: Stripe.Event) => SETTLING.has(event.type) && !isSubscriptionCheckout(event);

/** A dispute's evidence deadline (Unix seconds at Stripe), when it has one. */
const dueBy = (dispute: Stripe.Dispute): Date | null => {
  const seconds = dispute.evidence_details?.due_by;
  return typeof seconds === 'number' ? new Date(seconds * 1000) : null;
};

/**
 * What a dispute moved (docs/domain.md §20): an inquiry (warning_*) withdraws nothing; a chargeback's withdrawal is
 * its balance transaction of category `dispute`, which carries Stripe's dispute fee, and what it settled in the
 * account's currency (at its own rate), as a won dispute's reversal (`dispute_reversal`) does. A payload without the
 * list says nothing of either.
 */
const withdrawalOf = (dispute: Stripe.Dispute): Pick<DisputeFields, 'withdrawn' | 'fee' | 'settlement'> => {
  const of = (category: string) =>
    (dispute.balance_transactions ?? []).filter((t) => t.reporting_category === category);
  const [withdrawals, reversals] = [of('dispute'), of('dispute_reversal')];
  if (dispute.status.startsWith('warning_')) return { withdrawn: false, fee: null, settlement: null };
  if (!dispute.balance_transactions) return { withdrawn: true, fee: null, settlement: null };
  const sum = (list: Stripe.BalanceTransaction[], read: (t: Stripe.BalanceTransaction) => number) =>
    list.reduce((total, t) => total + read(t), 0);
  return {
    withdrawn: withdrawals.length > 0,
    fee: withdrawals.length ? sum(withdrawals, (t) => t.fee) : null,
    settlement: withdrawals.length
      ? {
          amount: sum(withdrawals, (t) => -t.amount),
          currency: withdrawals[0]!.currency,
          exchangeRate: withdrawals[0]!.exchange_rate ?? null,
          reversalAmount: reversals.length ? sum(reversals, (t) => t.amount) : null,
        }
      : null,
  };
};

/**
 * Stripe's events turned into commerce's actions, verified against the raw body before anything else. Each event id
 * is stored once; a redelivery of a processed event does nothing, and every handler converges on the provider's
 * current state, so concurrent duplicates and late, out-of-order events never move a purchase backwards.
 */
export function stripeEvents({ db, logger, stripe, checkouts, lifecycle, subscriptions }: Deps) {
  // Payments' events arriving together are settled together: one read, one transaction, one commit for the batch.
  const settleInBatch = groupCommit(
    (...[asks, answer]: Parameters<CheckoutService['settleSessions']>) => checkouts.settleSessions(asks, answer),
    BATCHES,
  );

  async function settledInBatch(sessionIdentifier: string, alongside: Alongside, event: EventKey, eventType: string) {
    const outcome = await settleInBatch({ sessionIdentifier, alongside, event, eventType });
    if (outcome.status === 'rejected') throw outcome.reason;
    return outcome.value;
  }

  /**
   * Acts on an event: false when its type is not ours; 'marked' when the handler marked it processed itself, in the
   * transaction of what it did; 'duplicate' when it found the event processed already, and did nothing.
   */
  async function handle(
    accountId: string,
    event: Stripe.Event,
    markProcessed: Alongside,
  ): Promise<boolean | 'marked' | 'duplicate'> {
    if (isBillingEvent(event)) {
      await handleBillingEvent(stripe!.provider, subscriptions, accountId, event);
      return true;
    }
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded':
      case 'checkout.session.expired': {
        // Fulfilment (or cancelation) reads the session back from Stripe: the event only says which one. A payment
        // is settled in a batch with the others arriving meanwhile, and answered once its own settlement is done.
        const key = { merchantAccountId: accountId, identifier: event.id };
        const sessionIdentifier = event.data.object.id;
        const settled =
          event.type === 'checkout.session.expired'
            ? await checkouts.settleSession(sessionIdentifier, markProcessed, key)
            : await settledInBatch(sessionIdentifier, markProcessed, key, event.type);
        if (settled?.eventProcessed) return 'duplicate';
        return settled?.alongside ? 'marked' : true;
      }
      case 'charge.refunded':
        await lifecycle.chargeRefunded(accountId, event.data.object.id, event.data.object.amount_refunded, event.id);
        return true;
      // A refund Stripe held pending succeeds or fails later; each of these may carry the news, in any order.
      case 'refund.updated':
      case 'refund.failed':
      case 'charge.refund.updated': {
        const settlement = refundSettlementOf(event.data.object);
        if (settlement) await lifecycle.refundSettled(accountId, settlement);
        return true;
      }
      case 'charge.dispute.created':
      case 'charge.dispute.closed': {
        const dispute = event.data.object;
        const fields = {
          identifier: dispute.id,
          chargeIdentifier: idOf(dispute.charge),
          amount: dispute.amount,
          reason: dispute.reason ?? null,
          evidenceDueBy: dueBy(dispute),
          ...withdrawalOf(dispute),
        };
        if (event.type === 'charge.dispute.created') await lifecycle.disputeOpened(accountId, fields);
        // An inquiry closed without a chargeback keeps the money, as a won dispute does.
        else
          await lifecycle.disputeClosed(accountId, {
            ...fields,
            won: dispute.status === 'won' || dispute.status === 'warning_closed',
          });
        return true;
      }
      default:
        return false;
    }
  }

  return {
    async receive(raw: Buffer, signature: string | undefined): Promise<WebhookOutcome> {
      const event = verifiedStripeEvent(stripe, raw, signature);
      const accountId = await stripe!.provider.accountId();
      const key = { merchantAccountId: accountId, identifier: event.id };
      // A checkout's event is first written as processed, with the settlement it asks for (whether it was processed
      // already is read with the checkout): a fulfilment sends no statement of its own for it. Others are recorded
      // first, then handled unless processed already.
      if (!settlesCheckout(event)) {
        const [fresh] = await db('merchantEvents')
          .insert({ ...key, type: event.type })
          .onConflict(['merchantAccountId', 'identifier'])
          .ignore()
          .returning('id');
        if (!fresh && (await db('merchantEvents').where(key).first('processedAt')).processedAt)
          return { received: true, duplicate: true };
      }
      // A copy arriving while the first is still being processed runs too: every handler is idempotent, and
      // the first copy failing must not leave the event acknowledged but undone. The event is marked processed only
      // once its handler is done: by a fulfilment in its own transaction, else right after.
      const markProcessed = (q: Knex | Knex.Transaction) =>
        q('merchantEvents')
          .insert({ ...key, type: event.type, processedAt: q.fn.now() })
          .onConflict(['merchantAccountId', 'identifier'])
          .merge({ processedAt: q.fn.now() })
          .whereNull('merchantEvents.processedAt');
      const acted = await handle(accountId, event, markProcessed);
      if (acted === 'duplicate') return { received: true, duplicate: true };
      if (acted !== 'marked') await markProcessed(db);
      if (!acted) logger.info({ eventId: event.id, type: event.type }, 'Stripe event type not handled; acknowledged');
      return acted ? { received: true } : { received: true, ignored: true };
    },
  };
}

export type StripeEvents = ReturnType<typeof stripeEvents>;
