import type Stripe from 'stripe';
import type { SubscriptionPriceChange } from './provider';

/**
 * A switch at the period's end through Stripe's subscription schedules (docs/domain.md §22), as Stripe documents a
 * downgrade at the end of the period: a schedule made from the subscription (its first phase the current period, as
 * it stands), then a second phase from that phase's end at the new price, released when it ends so the subscription
 * renews on its own from then on. Nothing is billed now; when the phase starts Stripe restarts the period at the new
 * price and bills it (`customer.subscription.updated`, `invoice.paid`). Undoing it releases the schedule: the
 * subscription keeps the terms of its current phase and renews at them.
 */

type Phase = Stripe.SubscriptionSchedule.Phase;
type PhaseParams = Stripe.SubscriptionScheduleUpdateParams.Phase;

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

/** The schedule that manages the subscription now (one released, completed or cancelled manages nothing). */
async function scheduleOf(stripe: Stripe, subscription: Stripe.Subscription) {
  const id = idOf(subscription.schedule);
  if (!id) return null;
  const schedule = await stripe.subscriptionSchedules.retrieve(id);
  return schedule.status === 'active' || schedule.status === 'not_started' ? schedule : null;
}

/** The coupons of a phase, sent back as they are (none: an empty string, so nothing is inherited from the customer). */
function discountsOf(phase: Phase): PhaseParams['discounts'] {
  const coupons = phase.discounts.flatMap((d) => (idOf(d.coupon) ? [{ coupon: idOf(d.coupon)! }] : []));
  return coupons.length ? coupons : '';
}

const taxRatesOf = (rates: { id: string }[] | null | undefined) => (rates ?? []).map((rate) => rate.id);

/** The current phase as it stands: an update replaces every phase it is given, so this one is sent back unchanged. */
function currentPhase(phase: Phase): PhaseParams {
  return {
    items: phase.items.map((item) => ({
      price: idOf(item.price)!,
      quantity: item.quantity,
      tax_rates: taxRatesOf(item.tax_rates),
    })),
    start_date: phase.start_date,
    end_date: phase.end_date,
    discounts: discountsOf(phase),
    proration_behavior: 'none',
    ...(phase.trial_end && { trial_end: phase.trial_end }),
    ...(phase.metadata && Object.keys(phase.metadata).length > 0 && { metadata: phase.metadata }),
  };
}

/**
 * Sets the subscription to move to `change` at its current period's end, nothing billed now: the price inline (as
 * subscribing makes it, on the same Stripe product), the seats, tax rates and coupon carried on, our price id in the
 * metadata the phase gives the subscription. A schedule made already (a switch asked again) is updated rather than
 * made twice.
 */
export async function scheduleSwitch(
  stripe: Stripe,
  identifier: string,
  change: SubscriptionPriceChange,
  unitAmount: number,
): Promise<void> {
  const subscription = await stripe.subscriptions.retrieve(identifier);
  const schedule =
    (await scheduleOf(stripe, subscription)) ??
    // No key of our own: a schedule undone and asked for again is another one (the SDK keys its own retries).
    (await stripe.subscriptionSchedules.create({ from_subscription: identifier }));
  // The phase in force (past phases may be left out of an update; later ones are replaced).
  const started = schedule.current_phase?.start_date;
  const current = schedule.phases.find((phase) => phase.start_date === started) ?? schedule.phases[0]!;
  const item = subscription.items.data[0]!;
  await stripe.subscriptionSchedules.update(schedule.id, {
    end_behavior: 'release',
    proration_behavior: 'none',
    phases: [
      currentPhase(current),
      {
        items: [
          {
            price_data: {
              currency: change.currency,
              product: idOf(item.price.product)!,
              unit_amount: unitAmount,
              recurring: { interval: change.interval },
            },
            quantity: change.quantity,
            tax_rates: taxRatesOf(current.items[0]?.tax_rates),
          },
        ],
        discounts: discountsOf(current),
        duration: { interval: change.interval, interval_count: 1 },
        proration_behavior: 'none',
        metadata: { priceId: change.priceId },
      },
    ],
  });
}

/**
 * Ends the schedule managing the subscription, if any: a switch still waiting for the period's end is dropped (the
 * subscription renews at the terms of its current phase), one made already stays made. Stripe refuses to change a
 * scheduled subscription's cancellation or items directly, so cancelling and an immediate change release it first.
 */
export async function releaseSchedule(stripe: Stripe, identifier: string): Promise<void> {
  const subscription = await stripe.subscriptions.retrieve(identifier);
  const schedule = await scheduleOf(stripe, subscription);
  if (schedule) await stripe.subscriptionSchedules.release(schedule.id);
}

/** Whether a switch waits for the subscription's period's end: a schedule manages it with a phase yet to start. */
export async function switchWaits(stripe: Stripe, identifier: string): Promise<boolean> {
  const subscription = await stripe.subscriptions.retrieve(identifier);
  const schedule = await scheduleOf(stripe, subscription);
  const end = subscription.items.data[0]?.current_period_end ?? 0;
  return Boolean(schedule?.phases.some((phase) => phase.start_date >= end));
}
