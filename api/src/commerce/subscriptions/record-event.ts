import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { ledger, splitsOf } from '../../finance/ledger';
import { issueInvoice } from '../../invoices/issue';
import { merchantProductId } from '../../payments/merchant-records';
import type { SubscriptionEvent } from '../../payments/provider';
import { insertCharge } from '../checkout/charge-rows';
import { recordInstalment } from '../payment-plans/record-instalment';
import type { SubscriptionDeps } from './deps';
import { afterFailedRenewal } from './dunning';
import { countRedemption, periodTax, termsOf, type SubscriptionTerms } from './terms';
import { DAY_MS } from '../../shared/durations';

interface SubscriptionRow extends SubscriptionTerms {
  id: string;
  userId: string;
  productId: string;
  status: string;
  currentPeriodEnd: Date;
  graceUntil: Date | null;
}

/** Our subscription for the provider's, recorded from the first of its events to arrive, and locked. */
async function lockedSubscription(
  trx: Knex.Transaction,
  accountId: string,
  event: SubscriptionEvent,
  graceUntil: Date,
): Promise<SubscriptionRow> {
  const { invoice, metadata } = event;
  const terms = termsOf(metadata);
  const [created] = await trx('subscriptions')
    .insert({
      id: event.reference,
      userId: metadata.userId,
      productId: metadata.productId,
      priceId: metadata.priceId,
      merchantAccountId: accountId,
      providerIdentifier: event.identifier,
      status: { trial: 'trialing', paid: 'active', failed: 'past_due' }[invoice.outcome],
      currentPeriodStart: invoice.periodStart,
      currentPeriodEnd: invoice.periodEnd,
      graceUntil: invoice.outcome === 'failed' ? graceUntil : null,
      ...terms,
    })
    .onConflict(['merchantAccountId', 'providerIdentifier'])
    .ignore()
    .returning('id');
  if (created) await countRedemption(trx, terms);
  return trx('subscriptions')
    .where({ merchantAccountId: accountId, providerIdentifier: event.identifier })
    .forUpdate()
    .first('id', 'userId', 'productId', 'status', 'currentPeriodEnd', 'graceUntil', ...TERMS);
}

const TERMS = ['quantity', 'couponId', 'taxCountry', 'taxRegion', 'taxVatId'] as const;

/** A paid period's money: the charge with its split lines (one statement) and its invoice; the charge's id. */
async function recordCharge(
  trx: Knex.Transaction,
  accountId: string,
  providerLabel: string,
  sub: SubscriptionRow,
  event: SubscriptionEvent,
): Promise<{ chargeId: string; invoiceId: string }> {
  const charge = event.invoice.charge!;
  const id = randomUUID();
  const tax = await periodTax(trx, sub, event.invoice);
  const facts = {
    id,
    amount: charge.amount,
    taxAmount: tax.taxAmount,
    fee: charge.fee,
    currency: event.invoice.currency,
    productId: sub.productId,
  };
  await insertCharge(
    trx,
    {
      id,
      accountId,
      customerIdentifier: event.customer.identifier,
      userId: sub.userId,
      charge,
      currency: event.invoice.currency,
      merchantProductId: await merchantProductId(trx, accountId, sub.productId, `${providerLabel}-${sub.productId}`),
      metadata: {
        subscriptionId: sub.id,
        providerInvoice: event.invoice.identifier,
        ...(event.invoice.discountAmount && { couponId: sub.couponId }),
        // A plan's instalment names its plan from the first (the subscription learns its plan after this charge).
        ...(event.metadata.paymentPlanId && { paymentPlanId: event.metadata.paymentPlanId }),
      },
      tax,
    },
    [ledger.saleInsert(trx, facts, await splitsOf(trx, sub.productId))],
  );
  const invoice = await issueInvoice(trx, id);
  return { chargeId: id, invoiceId: invoice.id };
}

/** A paid period ends dunning: no retries left to make. */
const dunningOver = { retryCount: 0, nextRetryAt: null };
/** Only a subscription in force goes past due: one already past due keeps its grace, one lapsed or ended stays so. */
const startsDunning = (status: string) => status === 'trialing' || status === 'active';

/** What the subscription becomes after this invoice, or null when a newer state already holds (a late event). */
function nextState(sub: SubscriptionRow, event: SubscriptionEvent, graceUntil: Date) {
  const { invoice } = event;
  // One that has ended stays ended: an invoice's event arriving after the end (Stripe's, late) does not renew it.
  if (sub.status === 'canceled') return null;
  const current = new Date(sub.currentPeriodEnd).getTime();
  if (invoice.outcome === 'paid' && invoice.periodEnd.getTime() >= current)
    return {
      status: 'active',
      currentPeriodStart: invoice.periodStart,
      currentPeriodEnd: invoice.periodEnd,
      graceUntil: null,
      ...dunningOver,
    };
  // A failed renewal of the period after the current one: grace starts with the first failure, not with each retry,
  // and a retry failing after the lapse does not open the courses again.
  if (invoice.outcome === 'failed' && invoice.periodStart.getTime() >= current && startsDunning(sub.status))
    return { status: 'past_due', graceUntil };
  return null;
}

/**
 * Records a provider's event of a subscription (docs/domain.md §22), exactly once whoever delivers it and however
 * often, in any order: the subscription (created by its first event), the period billed (unique per provider
 * invoice), a paid one's charge, split lines and invoice, and the subscription's state moved forward only.
 */
export async function recordSubscriptionEvent(
  deps: SubscriptionDeps,
  accountId: string,
  event: SubscriptionEvent,
): Promise<{ recorded: boolean }> {
  const { db, clock, config, provider } = deps;
  const graceUntil = new Date(clock.now().getTime() + config.SUBSCRIPTION_GRACE_DAYS * DAY_MS);
  const result = await db.transaction(async (trx) => {
    const sub = await lockedSubscription(trx, accountId, event, graceUntil);
    const seen = await trx('subscriptionPeriods')
      .where({ subscriptionId: sub.id, providerInvoiceIdentifier: event.invoice.identifier })
      .first('id');
    if (seen) return { recorded: false };
    const money =
      event.invoice.outcome === 'paid' ? await recordCharge(trx, accountId, provider.label, sub, event) : null;
    await trx('subscriptionPeriods').insert({
      subscriptionId: sub.id,
      providerInvoiceIdentifier: event.invoice.identifier,
      outcome: event.invoice.outcome,
      periodStart: event.invoice.periodStart,
      periodEnd: event.invoice.periodEnd,
      merchantChargeId: money?.chargeId ?? null,
      invoiceId: money?.invoiceId ?? null,
      discountAmount: event.invoice.discountAmount ?? 0,
      couponId: event.invoice.discountAmount ? sub.couponId : null,
    });
    const next = nextState(sub, event, graceUntil);
    if (next)
      await trx('subscriptions')
        .where({ id: sub.id })
        .update({ ...next, updatedAt: clock.now() });
    if (event.invoice.outcome === 'failed') await afterFailedRenewal(trx, deps, sub.id);
    await recordInstalment(trx, sub.id, event, clock.now());
    return { recorded: true };
  });
  if (result.recorded && event.invoice.outcome === 'failed') deps.outbox.flushInBackground();
  return result;
}
