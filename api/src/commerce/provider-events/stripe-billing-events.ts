import type Stripe from 'stripe';
import type { StripeProvider } from '../../payments/stripe-provider';
import type { SubscriptionService } from '../subscriptions/subscriptions';

/** Stripe Billing's events of a subscription that commerce records (docs/domain.md §22). */
const BILLING_EVENTS = new Set([
  'invoice.paid',
  'invoice.payment_failed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  // A schedule of a switch at the period's end let go before its phase: the switch no longer waits.
  'subscription_schedule.released',
  'subscription_schedule.canceled',
]);

/** A Checkout Session of a subscription: Stripe Billing's, never a one-time purchase to fulfil. */
export const isSubscriptionCheckout = (event: Stripe.Event): boolean =>
  event.type.startsWith('checkout.session.') && (event.data.object as Stripe.Checkout.Session).mode === 'subscription';

export const isBillingEvent = (event: Stripe.Event): boolean =>
  BILLING_EVENTS.has(event.type) || isSubscriptionCheckout(event);

/**
 * Acts on one of Stripe Billing's events: an invoice paid or failed is recorded as the period it bills (a paid one
 * with its charge, and a coupon for a number of periods ended after its last); a subscription's change is read back from Stripe and recorded as its state now, so a late or
 * repeated event converges on the same state. A completed subscription checkout only sets a payment plan's end:
 * the subscription's own events record it. A schedule released or cancelled leaves no switch waiting unless Stripe
 * shows another schedule's.
 */
export async function handleBillingEvent(
  stripe: StripeProvider,
  subscriptions: Pick<SubscriptionService, 'recordEvent' | 'recordState' | 'recordNoWaitingSwitch'>,
  accountId: string,
  event: Stripe.Event,
): Promise<void> {
  const read = stripe.billingEvents;
  switch (event.type) {
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const outcome = event.type === 'invoice.paid' ? 'paid' : 'failed';
      const recorded = await read.invoiceEvent(event.data.object, outcome);
      if (recorded) await subscriptions.recordEvent(accountId, recorded);
      if (recorded && outcome === 'paid') await read.endCouponAfterPeriods(event.data.object);
      return;
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const state = await read.subscriptionState(event.data.object.id);
      if (state) await subscriptions.recordState(accountId, state);
      return;
    }
    case 'subscription_schedule.released':
    case 'subscription_schedule.canceled': {
      // Read back from Stripe: a later schedule (the learner switched again) may wait now, whatever this one did.
      const identifier = await read.subscriptionWithoutWaitingSwitch(event.data.object);
      if (identifier) await subscriptions.recordNoWaitingSwitch(accountId, identifier);
      return;
    }
    case 'checkout.session.completed':
      await read.endAfterIterations(event.data.object);
      return;
    default:
      // An expired or abandoned subscription checkout made nothing of ours.
      return;
  }
}
