import type Stripe from 'stripe';
import { AppError } from '../shared/errors';
import { callStripe } from './stripe-call';
import { releaseSchedule, scheduleSwitch, switchWaits } from './stripe-switch-schedule';
import type {
  BillingInterval,
  Settlement,
  SubscriptionBilling,
  SubscriptionEvent,
  SubscriptionPriceChange,
  SubscriptionRequest,
  SubscriptionState,
} from './provider';

/**
 * Stripe Billing behind the subscription port (docs/domain.md §22): the buyer subscribes on a Checkout Session in
 * subscription mode, Stripe bills every period and retries a failed one on its own schedule (Smart Retries, so there
 * is no `retryFailedInvoice`), and its events (read by `stripeBillingEvents`) tell commerce what happened.
 */

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

const fromSeconds = (seconds: number) => new Date(seconds * 1000);

/** The end of the `n`th period of `interval` from `anchor`, as Stripe counts them (the anchor's day, or the month's last). */
export function nthPeriodEnd(anchor: Date, interval: BillingInterval, n: number): Date {
  const months = interval === 'month' ? n : 12 * n;
  const year = anchor.getUTCFullYear();
  const month = anchor.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const end = new Date(anchor);
  end.setUTCFullYear(year, month, Math.min(anchor.getUTCDate(), lastDay));
  return end;
}

/** What each seat costs: Stripe bills a unit price times the quantity, so the whole must share out to the cent. */
function unitAmountOf(request: Pick<SubscriptionRequest, 'amount' | 'quantity'>): number {
  const quantity = request.quantity ?? 1;
  if (request.amount % quantity !== 0)
    throw new AppError('validation-failed', 'The price of a membership must share out evenly between its seats.');
  return request.amount / quantity;
}

/**
 * The metadata every object of the subscription carries: ours, the reference, a plan's number of periods and how
 * many paid periods a coupon lasts.
 */
function metadataOf(request: SubscriptionRequest): Record<string, string> {
  return {
    ...request.metadata,
    reference: request.reference,
    ...(request.iterations && { iterations: String(request.iterations) }),
    ...(request.discount?.periods && { couponPeriods: String(request.discount.periods) }),
  };
}

/**
 * Whether a change bills something now: Stripe applies it at once, the unused part of the period credited. One the
 * credit covers (a cheaper price, yearly to monthly) belongs at the period's end, which Stripe would not wait for.
 */
function dueNow(
  item: Stripe.SubscriptionItem,
  change: Pick<SubscriptionRequest, 'amount' | 'interval' | 'quantity'>,
): boolean {
  const [start, end] = [item.current_period_start, item.current_period_end];
  const left = Math.max(0, end - Date.now() / 1000) / Math.max(1, end - start);
  const unused = (item.price.unit_amount ?? 0) * (item.quantity ?? 1) * left;
  const billed = change.interval === item.price.recurring?.interval ? change.amount * left : change.amount;
  return billed > unused;
}

/**
 * Refuses (`quote-changed`) a change Stripe would bill otherwise than commerce quoted it, before anything changes:
 * its period moved on meanwhile (a renewal got there first), or the invoice Stripe previews for the change, prorated
 * at the quote's instant as the change will be, is not the amount quoted (docs/domain.md §22: what is quoted is what
 * is charged).
 */
async function refuseUnquoted(
  stripe: Stripe,
  subscription: Stripe.Subscription,
  items: Stripe.InvoiceCreatePreviewParams.SubscriptionDetails.Item[],
  quoted: NonNullable<SubscriptionPriceChange['quoted']>,
  prorationDate: number,
): Promise<void> {
  const changed = () => new AppError('quote-changed', 'What this change costs has changed since it was quoted.');
  const item = subscription.items.data[0]!;
  const periodEnd = Math.floor(new Date(quoted.periodEnd).getTime() / 1000);
  if (item.current_period_end !== periodEnd || prorationDate < item.current_period_start) throw changed();
  const preview = await stripe.invoices.createPreview({
    subscription: subscription.id,
    subscription_details: { items, proration_behavior: 'always_invoice', proration_date: prorationDate },
  });
  if (preview.amount_due !== quoted.amount) throw changed();
}

export function stripeSubscriptions(stripe: Stripe): SubscriptionBilling {
  /**
   * The subscriber's coupon as a Stripe coupon of its percentage, forever: a repeating one counts its months from
   * subscribing, so a trial would use them up. One for a number of periods is taken off the subscription once that
   * many paid periods have had it (`endCouponAfterPeriods`).
   */
  async function couponOf(request: SubscriptionRequest): Promise<string | null> {
    const { discount } = request;
    if (!discount) return null;
    const coupon = await stripe.coupons.create(
      {
        percent_off: discount.bp / 100,
        duration: 'forever',
        max_redemptions: 1,
        name: discount.label.slice(0, 40),
        metadata: { reference: request.reference },
      },
      { idempotencyKey: `subscription-coupon-${request.reference}` },
    );
    return coupon.id;
  }

  /** The tax quoted for the buyer's place as a Stripe tax rate on every invoice (inside the price, or added on top). */
  async function taxRateOf(request: SubscriptionRequest): Promise<string | null> {
    const { tax } = request;
    if (!tax?.rate) return null;
    const rate = await stripe.taxRates.create(
      { display_name: 'Tax', percentage: tax.rate / 100, inclusive: tax.inclusive },
      { idempotencyKey: `subscription-tax-${request.reference}` },
    );
    return rate.id;
  }

  async function customerOf(identifier: string): Promise<string> {
    const subscription = await stripe.subscriptions.retrieve(identifier);
    return idOf(subscription.customer)!;
  }

  return {
    async createSubscription(request) {
      const metadata = metadataOf(request);
      const session = await callStripe('start the subscription', async () => {
        const [coupon, taxRate] = [await couponOf(request), await taxRateOf(request)];
        return stripe.checkout.sessions.create(
          {
            mode: 'subscription',
            line_items: [
              {
                // Inline: a membership's price may change, and each subscription keeps the one it was sold at.
                price_data: {
                  currency: request.currency,
                  unit_amount: unitAmountOf(request),
                  recurring: { interval: request.interval },
                  product_data: { name: request.description },
                },
                quantity: request.quantity ?? 1,
                ...(taxRate && { tax_rates: [taxRate] }),
              },
            ],
            ...(coupon && { discounts: [{ coupon }] }),
            subscription_data: {
              metadata,
              ...(request.trialDays > 0 && { trial_period_days: request.trialDays }),
            },
            metadata,
            customer_email: request.customerEmail,
            client_reference_id: request.reference,
            success_url: request.successUrl,
            cancel_url: request.cancelUrl,
          },
          { idempotencyKey: `subscription-${request.reference}` },
        );
      });
      return { identifier: session.id, url: session.url! };
    },

    async cancelAtPeriodEnd(identifier, cancel) {
      await callStripe('change the subscription', async () => {
        // A scheduled subscription's cancellation is the schedule's: released first (a switch made stays made).
        await releaseSchedule(stripe, identifier);
        await stripe.subscriptions.update(identifier, { cancel_at_period_end: cancel });
      });
    },

    async cancelNow(identifier) {
      await callStripe('cancel the subscription', async () => {
        const subscription = await stripe.subscriptions.retrieve(identifier);
        if (subscription.status !== 'canceled') await stripe.subscriptions.cancel(identifier);
      });
    },

    async changePrice(identifier, change) {
      await callStripe('change the subscription', async () => {
        const subscription = await stripe.subscriptions.retrieve(identifier);
        const item = subscription.items.data[0]!;
        // Stripe would apply it at once, crediting what it does not bill: it belongs at the period's end.
        if (subscription.status === 'trialing' || !dueNow(item, change))
          throw new AppError(
            'switch-at-period-end-unavailable',
            'Nothing is due now for this change: it applies from the end of the period you paid for.',
          );
        const items = [
          {
            id: item.id,
            price_data: {
              currency: change.currency,
              product: idOf(item.price.product)!,
              unit_amount: unitAmountOf(change),
              recurring: { interval: change.interval },
            },
            quantity: change.quantity,
          },
        ];
        // A quoted change is prorated at the quote's instant, and made only if Stripe would bill exactly the quote.
        const prorationDate = change.quoted && Math.floor(change.quoted.at.getTime() / 1000);
        if (change.quoted) await refuseUnquoted(stripe, subscription, items, change.quoted, prorationDate!);
        // A schedule left from a switch made at a period's end would undo this one when it ends.
        await releaseSchedule(stripe, identifier);
        const updated = await stripe.subscriptions.update(identifier, {
          items,
          // The unused part of the period is credited and the difference billed now, as one invoice.
          proration_behavior: 'always_invoice',
          ...(prorationDate && { proration_date: prorationDate }),
          // A declined payment leaves the subscription as it was (the change waits, then expires) rather than
          // switching it unpaid.
          payment_behavior: 'pending_if_incomplete',
        });
        if (updated.pending_update)
          throw new AppError(
            'payment-declined',
            'Your card was declined: nothing was changed. Update your card first.',
          );
        // A pending update takes only the items and proration: our price id follows once the change is made.
        await stripe.subscriptions.update(identifier, { metadata: { priceId: change.priceId } });
      });
    },

    async changePriceAtPeriodEnd(identifier, change) {
      await callStripe('change the subscription', () =>
        scheduleSwitch(stripe, identifier, change, unitAmountOf(change)),
      );
    },

    async keepPrice(identifier) {
      await callStripe('change the subscription', () => releaseSchedule(stripe, identifier));
    },

    async paymentMethodUrl(identifier, returnUrl) {
      return callStripe('open the billing page', async () => {
        // Straight to replacing the card, then back: the portal's home could cancel a payment plan.
        const portal = await stripe.billingPortal.sessions.create({
          customer: await customerOf(identifier),
          return_url: returnUrl,
          flow_data: {
            type: 'payment_method_update',
            after_completion: { type: 'redirect', redirect: { return_url: returnUrl } },
          },
        });
        return portal.url;
      });
    },
  };
}

/** Stripe's statuses as ours; null while it has none of ours yet (incomplete: the first payment not made). */
const STATUSES: Partial<Record<Stripe.Subscription.Status, SubscriptionState['status']>> = {
  trialing: 'trialing',
  active: 'active',
  past_due: 'past_due',
  // Smart Retries gave up (or the subscription is paused): the courses close, as after our grace.
  unpaid: 'lapsed',
  paused: 'lapsed',
  canceled: 'canceled',
  incomplete_expired: 'canceled',
};

const sum = (parts: { amount: number }[] | null | undefined) => (parts ?? []).reduce((t, p) => t + p.amount, 0);

/** Where a subscription's invoice belongs: its subscription and the metadata snapshot it carries. */
function subscriptionDetailsOf(invoice: Stripe.Invoice) {
  const details = invoice.parent?.subscription_details;
  return details ? { identifier: idOf(details.subscription)!, metadata: details.metadata ?? {} } : null;
}

/** The period an invoice bills: from its lines' earliest start to their latest end (a proration's too). */
function periodOf(invoice: Stripe.Invoice): { periodStart: Date; periodEnd: Date } {
  const lines = invoice.lines.data;
  const starts = lines.map((line) => line.period.start);
  const ends = lines.map((line) => line.period.end);
  return { periodStart: fromSeconds(Math.min(...starts)), periodEnd: fromSeconds(Math.max(...ends)) };
}

/**
 * Stripe Billing's events read as the port's: an invoice paid or failed as a SubscriptionEvent, a subscription's
 * change as its SubscriptionState. Both read Stripe back rather than trust a payload that may be stale: a paid
 * invoice for its charge and Stripe's fee, a subscription for its state now.
 */
export function stripeBillingEvents(
  stripe: Stripe,
  /** Stripe's fee in the charge's currency, and what it settled (as a one-time payment's are read). */
  moneyOf: (
    charge: Stripe.Charge,
    balance: Stripe.BalanceTransaction | null,
  ) => { fee: number; settlement: Settlement | null },
) {
  return {
    /**
     * An invoice of one of our subscriptions (null: not one of ours). A paid one is read back with its charge; one
     * with nothing to pay (a trial's) has none. Each failed attempt of an invoice is its own event: Smart Retries may
     * pay the same invoice later.
     */
    async invoiceEvent(payload: Stripe.Invoice, outcome: 'paid' | 'failed'): Promise<SubscriptionEvent | null> {
      const details = subscriptionDetailsOf(payload);
      if (!details?.metadata.reference) return null;
      const invoice =
        outcome === 'paid'
          ? await callStripe('read the invoice', () => stripe.invoices.retrieve(payload.id!, { expand: ['payments'] }))
          : payload;
      let charge: SubscriptionEvent['invoice']['charge'] = null;
      if (outcome === 'paid' && invoice.amount_paid > 0) {
        const payment = invoice.payments?.data.find((p) => p.status === 'paid' && p.payment.payment_intent);
        if (!payment) throw new AppError('payment-provider-unavailable', 'Stripe has not recorded the payment yet.');
        const intent = await callStripe('read the payment', () =>
          stripe.paymentIntents.retrieve(idOf(payment.payment.payment_intent)!, {
            expand: ['latest_charge.balance_transaction'],
          }),
        );
        const paid = intent.latest_charge as Stripe.Charge;
        const balance = (
          typeof paid.balance_transaction === 'object' ? paid.balance_transaction : null
        ) as Stripe.BalanceTransaction | null;
        charge = { identifier: paid.id, amount: paid.amount, ...moneyOf(paid, balance) };
      }
      return {
        identifier: details.identifier,
        reference: details.metadata.reference,
        metadata: details.metadata,
        customer: { identifier: idOf(invoice.customer)!, email: invoice.customer_email ?? '' },
        invoice: {
          identifier: outcome === 'failed' ? `${invoice.id}/attempt-${invoice.attempt_count}` : invoice.id!,
          outcome: outcome === 'failed' ? 'failed' : charge ? 'paid' : 'trial',
          ...periodOf(invoice),
          currency: invoice.currency,
          charge,
          discountAmount: sum(invoice.total_discount_amounts),
          taxAmount: sum(invoice.total_taxes),
        },
      };
    },

    /** One of our subscriptions as Stripe holds it now (null: not ours, or nothing of ours to record yet). */
    async subscriptionState(identifier: string): Promise<SubscriptionState | null> {
      // Taken before the read: a state read later is at least as new.
      const observedAt = new Date();
      const subscription = await callStripe('read the subscription', () => stripe.subscriptions.retrieve(identifier));
      const status = STATUSES[subscription.status];
      const item = subscription.items.data[0];
      if (!status || !item || !subscription.metadata.reference) return null;
      return {
        identifier: subscription.id,
        reference: subscription.metadata.reference,
        metadata: subscription.metadata,
        status,
        cancelAtPeriodEnd: subscription.cancel_at_period_end,
        currentPeriodStart: fromSeconds(item.current_period_start),
        currentPeriodEnd: fromSeconds(item.current_period_end),
        observedAt,
      };
    },

    /**
     * The subscription a released or cancelled schedule managed, when Stripe now shows no switch waiting for its
     * period's end (no schedule of it with a phase yet to start); null otherwise.
     */
    async subscriptionWithoutWaitingSwitch(schedule: Stripe.SubscriptionSchedule): Promise<string | null> {
      const identifier = idOf(schedule.released_subscription) ?? idOf(schedule.subscription);
      if (!identifier) return null;
      const waits = await callStripe('read the subscription', () => switchWaits(stripe, identifier));
      return waits ? null : identifier;
    },

    /**
     * A coupon for a number of paid periods (the `couponPeriods` of its metadata) is taken off the subscription once
     * a paid invoice bills the last of them, counted from the end of any trial; a repeated event finds none left.
     */
    async endCouponAfterPeriods(payload: Stripe.Invoice): Promise<void> {
      const details = subscriptionDetailsOf(payload);
      const periods = Number(details?.metadata.couponPeriods ?? 0);
      if (!details || !periods || !payload.lines.data.length) return;
      await callStripe('end the coupon', async () => {
        const subscription = await stripe.subscriptions.retrieve(details.identifier);
        if (!subscription.discounts?.length) return;
        const interval = subscription.items.data[0]!.price.recurring!.interval as BillingInterval;
        const firstPaid = fromSeconds(subscription.trial_end ?? subscription.start_date);
        const last = nthPeriodEnd(firstPaid, interval, periods);
        if (periodOf(payload).periodEnd < last) return;
        await stripe.subscriptions.deleteDiscount(details.identifier);
      });
    },

    /**
     * A payment plan's subscription ends by itself after its periods (the `iterations` of its metadata). Stripe's
     * subscription schedules no longer take a number of iterations (their phases take a duration since API version
     * 2025-09-30), and Checkout makes a plain subscription: once Checkout has made it, its `cancel_at` is set to the
     * end of the last period, counted from its billing anchor, so nothing is prorated and no period more is billed.
     */
    async endAfterIterations(session: Stripe.Checkout.Session): Promise<void> {
      const iterations = Number(session.metadata?.iterations ?? 0);
      const identifier = idOf(session.subscription);
      if (!iterations || !identifier) return;
      await callStripe('set the plan’s end', async () => {
        const subscription = await stripe.subscriptions.retrieve(identifier);
        const interval = subscription.items.data[0]!.price.recurring!.interval as BillingInterval;
        const end = nthPeriodEnd(fromSeconds(subscription.billing_cycle_anchor), interval, iterations);
        if (subscription.cancel_at === end.getTime() / 1000) return;
        await stripe.subscriptions.update(
          identifier,
          { cancel_at: end.getTime() / 1000, proration_behavior: 'none' },
          { idempotencyKey: `plan-end-${identifier}` },
        );
      });
    },
  };
}

export type StripeBillingEvents = ReturnType<typeof stripeBillingEvents>;
