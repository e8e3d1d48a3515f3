import Router from '@koa/router';
import type { Context } from 'koa';
import type { Config } from '../../config';
import { buyerCountry, buyerPlace } from '../../http/buyer-location';
import { authOf, userOf } from '../../identity/http/caller';
import type { Policies } from '../../identity/http/policy';
import type { PaymentPlanTerms } from './buy';
import type { PaymentPlanQuote } from './plan-price';
import { BuyPaymentPlanBody } from './payment-plans.schemas';

/** Buying a course in instalments (docs/domain.md §23); the plan's subscription is then listed with the others. */
export function paymentPlanRoutes({
  allow,
  config,
  paymentPlans,
}: {
  allow: Policies;
  config: Pick<Config, 'TRUST_PROXY' | 'COUNTRY_HEADER' | 'DEFAULT_COUNTRY' | 'CITY_HEADER' | 'REGION_HEADER'>;
  paymentPlans: {
    buy(userId: string, productId: string, asked: PaymentPlanTerms): Promise<{ url: string }>;
    quote(userId: string | null, productId: string, asked: PaymentPlanTerms): Promise<PaymentPlanQuote>;
  };
}) {
  const router = new Router();

  // The regional price follows the detected country; tax the billing place (the detected one unless given).
  const termsOf = (ctx: Context) => {
    const { productId, coupon, ...terms } = BuyPaymentPlanBody.parse(ctx.request.body);
    const asked = {
      ...terms,
      couponCode: coupon,
      country: buyerCountry(ctx, config),
      region: buyerPlace(ctx, config).state,
    };
    return { productId, asked };
  };

  router.post('/payment-plans', allow.signedIn(), async (ctx) => {
    const { productId, asked } = termsOf(ctx);
    ctx.status = 201;
    ctx.body = { data: await paymentPlans.buy(userOf(ctx).id, productId, asked) };
  });

  // Every instalment as buying would bill it, nothing started: the sales page shows it to anyone.
  router.post('/payment-plans/quote', allow.public(), async (ctx) => {
    const { productId, asked } = termsOf(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { data: await paymentPlans.quote(authOf(ctx)?.user.id ?? null, productId, asked) };
  });

  return router;
}
