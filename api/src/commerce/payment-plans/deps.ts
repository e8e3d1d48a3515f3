import type { SubscriptionDeps } from '../subscriptions/deps';

/** What buying a payment plan needs: a subscription's own deps, without dunning's. */
export type PaymentPlanDeps = Pick<SubscriptionDeps, 'db' | 'clock' | 'config' | 'provider'>;
