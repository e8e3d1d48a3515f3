import { bindDeps } from '../../shared/bind-deps';
import { setCancelAtPeriodEnd } from './change';
import type { SubscriptionDeps } from './deps';
import { refuseToCancelPlan } from '../payment-plans/subscription-columns';
import { sweepDunning } from './dunning';
import { paymentMethodUrl } from './card';
import { billingOf, switchInterval } from './switch';
import type { BillingInterval } from '../../payments/provider';
import { recordSubscriptionEvent } from './record-event';
import { recordSubscriptionState } from './record-state';
import { hasSubscriptions, subscriptionsOf } from './rows';
import { addSeats, seatsOf, takeSeat } from './seats';
import { quoteSeats } from './seat-quote';
import { subscribe } from './subscribe';
import { quoteSubscribe } from './subscribe-quote';
import { recordNoWaitingSwitch } from './waiting-switch';

/** Memberships' subscriptions (docs/domain.md §22): subscribing, the provider's events, a learner's list and changes. */
export function subscriptionService(deps: SubscriptionDeps) {
  const step = bindDeps(deps);
  return {
    subscribe: step(subscribe),
    quoteSubscribe: step(quoteSubscribe),
    recordEvent: step(recordSubscriptionEvent),
    seats: step(seatsOf),
    addSeats: step(addSeats),
    quoteSeats: step(quoteSeats),
    takeSeat: step(takeSeat),
    recordState: step(recordSubscriptionState),
    /** The provider dropped a switch waiting for the period's end (a Stripe schedule released elsewhere). */
    recordNoWaitingSwitch: (accountId: string, providerIdentifier: string) =>
      recordNoWaitingSwitch(deps, accountId, providerIdentifier),
    mine: (userId: string) => subscriptionsOf(deps.db, userId, deps.clock.now()),
    hasAny: (userId: string) => hasSubscriptions(deps.db, userId),
    cancel: async (userId: string, id: string) => {
      await refuseToCancelPlan(deps.db, userId, id);
      return setCancelAtPeriodEnd(deps, userId, id, true);
    },
    resume: (userId: string, id: string) => setCancelAtPeriodEnd(deps, userId, id, false),
    paymentMethodUrl: (userId: string, id: string) => paymentMethodUrl(deps, userId, id),
    billing: (userId: string, id: string) => billingOf(deps, userId, id),
    switchInterval: (userId: string, id: string, interval: BillingInterval, dueNow?: number) =>
      switchInterval(deps, userId, id, interval, dueNow),
    /** Dunning's sweep: failed renewals retried when due, lapses recorded (the minute's job runs it). */
    sweepDunning: () => sweepDunning(deps),
  };
}

export type SubscriptionService = ReturnType<typeof subscriptionService>;
