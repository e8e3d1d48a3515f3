import { z } from 'zod';
import type { SubscriptionStatus } from '../../shared/subscription-status';
import type { InstalmentsView } from '../payment-plans/payment-plans.schemas';

/** Subscribing to a membership: which one. */
export const SubscribeBody = z.strictObject({ productId: z.uuid('must be a product id') });

// ─── Answers ───────────────────────────────────────────────────────────────────────────────────────────────────────

/** A learner's subscription as the storefront lists it (`GET /api/store/subscriptions`). */
export interface SubscriptionView extends InstalmentsView {
  id: string;
  productId: string;
  /** The membership's name and its sales page's slug, as the learner's list shows them. */
  productName: string;
  productSlug: string | null;
  status: SubscriptionStatus;
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
}

/** Where the learner subscribes: the provider's hosted page. */
export interface SubscribeAnswer {
  url: string;
}
