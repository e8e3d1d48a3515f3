import type Stripe from 'stripe';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Clock } from '../../api/src/clock';
import type { Db } from '../../api/src/db/connection';
import { testApp, testConfig } from './app';
import { deliverSigned, standInEnv, startStripeStandIn, type StandIn } from './stripe-stand-in';

type App = ReturnType<typeof testApp>;

/**
 * Stripe Billing for a test file (docs/domain.md §22): the stand-in started before its tests and closed after them,
 * and an app that bills through it with the real SDK, a failed renewal's grace 7 days and `env` on top. The getters
 * are valid inside tests and hooks; `config()` builds another replica on the same stand-in.
 */
export function useStripeBilling(
  db: () => Db,
  { clock, env = {} }: { clock?: Clock; env?: Record<string, string> } = {},
) {
  let standIn: StandIn | undefined;
  let billingApp: App | undefined;
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('Stripe Billing is not ready: call it inside a test or hook');
    return value;
  };
  const stripe = () => ready(standIn);
  const app = () => ready(billingApp);
  const config = () => testConfig({ ...standInEnv(stripe()), SUBSCRIPTION_GRACE_DAYS: '7', ...env });
  beforeAll(async () => {
    standIn = await startStripeStandIn();
    billingApp = testApp(db(), { clock, config: config() });
  });
  afterAll(() => standIn?.close());
  /** A subscription as Stripe holds it. */
  const stripeSub = (id: string) => stripe().objects.get(id) as unknown as Stripe.Subscription;
  return {
    stripe,
    app,
    config,
    /** Delivers Stripe's events in their order, signed as Stripe signs them; each must be taken (200). */
    async deliver(events: Stripe.Event[], to: App = app()) {
      for (const event of events) {
        const answer = await deliverSigned(to, event);
        expect(answer.status, `${event.type}: ${JSON.stringify(answer.body)}`).toBe(200);
      }
    },
    stripeSub,
    /** A subscription's one item at Stripe: its price, quantity and period. */
    itemOf: (id: string) => stripeSub(id).items.data[0]!,
  };
}
