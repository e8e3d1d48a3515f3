import Router from '@koa/router';
import type { Config } from '../../config';
import { buyerCountry, buyerPlace } from '../../http/buyer-location';
import type { Context, Next } from 'koa';
import { authOf, userOf } from '../../identity/http/caller';
import { IdParam } from '../../http/params';
import type { Policies } from '../../identity/http/policy';
import { AppError } from '../../shared/errors';
import { SubscribeBody, SwitchBody } from './subscriptions.schemas';
import type { SubscriptionService } from './subscriptions';

/**
 * The card page pays and replaces the learner's card: support viewing as them reads their subscriptions but cannot
 * reach it, as no other change is theirs to make.
 */
async function notWhileViewingAs(ctx: Context, next: Next) {
  const auth = authOf(ctx);
  if (auth?.method === 'session' && auth.viewAs)
    throw new AppError(
      'view-as-read-only',
      'You are viewing this account as support: nothing can be changed. End the view to act as yourself.',
    );
  return next();
}

/** A learner's memberships: subscribing, their subscriptions, cancelling at the period's end and resuming. */
export function subscriptionRoutes({
  allow,
  config,
  subscriptions,
}: {
  allow: Policies;
  config: Pick<Config, 'TRUST_PROXY' | 'COUNTRY_HEADER' | 'DEFAULT_COUNTRY' | 'CITY_HEADER' | 'REGION_HEADER'>;
  subscriptions: SubscriptionService;
}) {
  const router = new Router();

  router.post('/subscriptions', allow.signedIn(), async (ctx) => {
    const { productId, coupon, ...terms } = SubscribeBody.parse(ctx.request.body);
    // The regional price follows the detected country; tax the billing place (the detected one unless given).
    const asked = {
      ...terms,
      couponCode: coupon,
      country: buyerCountry(ctx, config),
      region: buyerPlace(ctx, config).state,
    };
    ctx.status = 201;
    ctx.body = { data: await subscriptions.subscribe(userOf(ctx).id, productId, asked) };
  });

  // The same terms priced, nothing started: the buy box shows the coupon's price and reach before subscribing.
  router.post('/subscriptions/quote', allow.signedIn(), async (ctx) => {
    const { productId, coupon, ...terms } = SubscribeBody.parse(ctx.request.body);
    const asked = {
      ...terms,
      couponCode: coupon,
      country: buyerCountry(ctx, config),
      region: buyerPlace(ctx, config).state,
    };
    ctx.body = { data: await subscriptions.quoteSubscribe(userOf(ctx).id, productId, asked) };
  });

  router.get('/subscriptions', allow.signedIn(), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { data: await subscriptions.mine(userOf(ctx).id) };
  });

  router.post('/subscriptions/:id/cancel', allow.signedIn(), async (ctx) => {
    ctx.body = { data: await subscriptions.cancel(userOf(ctx).id, IdParam.parse(ctx.params).id) };
  });

  router.post('/subscriptions/:id/resume', allow.signedIn(), async (ctx) => {
    ctx.body = { data: await subscriptions.resume(userOf(ctx).id, IdParam.parse(ctx.params).id) };
  });

  // The provider's page where the card is replaced (no-store: the address may be for this one visit).
  router.get('/subscriptions/:id/payment-method', allow.signedIn(), notWhileViewingAs, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { data: await subscriptions.paymentMethodUrl(userOf(ctx).id, IdParam.parse(ctx.params).id) };
  });

  // The Billing page: the next charge, and what a switch to the other interval costs now.
  router.get('/subscriptions/:id/billing', allow.signedIn(), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { data: await subscriptions.billing(userOf(ctx).id, IdParam.parse(ctx.params).id) };
  });

  router.post('/subscriptions/:id/switch', allow.signedIn(), async (ctx) => {
    const { interval, dueNow } = SwitchBody.parse(ctx.request.body);
    const { id } = IdParam.parse(ctx.params);
    ctx.body = { data: await subscriptions.switchInterval(userOf(ctx).id, id, interval, dueNow) };
  });

  return router;
}
