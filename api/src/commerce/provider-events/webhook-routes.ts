import Router from '@koa/router';
import getRawBody from 'raw-body';
import type { Policies } from '../../identity/http/policy';
import type { StripeEvents } from './stripe-events';

export const STRIPE_WEBHOOK_PATH = '/api/webhooks/stripe';

/** Provider callbacks. The body is read raw (never parsed first): the signature is over its exact bytes. */
export function webhookRoutes({ allow, stripe }: { allow: Policies; stripe: StripeEvents }) {
  const router = new Router();
  router.post('/stripe', allow.public(), async (ctx) => {
    const raw = await getRawBody(ctx.req, { limit: '1mb' });
    ctx.body = await stripe.receive(raw, ctx.get('stripe-signature') || undefined);
  });
  return router;
}
