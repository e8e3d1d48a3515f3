import Router from '@koa/router';
import type { Config } from '../../config';
import { buyerCountry, buyerPlace } from '../../http/buyer-location';
import { userOf } from '../../identity/http/caller';
import type { Policies } from '../../identity/http/policy';
import type { PaymentPlanTerms } from './buy';
import { BuyPaymentPlanBody } from './payment-plans.schemas';

/** Buying a course in instalments (docs/domain.md §23); the plan's subscription is then listed with the others. */
export function paymentPlanRoutes({
  allow,
  config,
  paymentPlans,
}: {
  allow: Policies;
  config: Pick<Config, 'TRUST_PROXY' | 'COUNTRY_HEADER' | 'DEFAULT_COUNTRY' | 'CITY_HEADER' | 'REGION_HEADER'>;
  paymentPlans: { buy(userId: string, productId: string, asked: PaymentPlanTerms): Promise<{ url: string }> };
}) {
  const router = new Router();

  router.post('/payment-plans', allow.signedIn(), async (ctx) => {
    const { productId, billing } = BuyPaymentPlanBody.parse(ctx.request.body);
    // Tax follows the billing place: the detected one unless given, as for a membership.
    const asked = { billing, country: buyerCountry(ctx, config), region: buyerPlace(ctx, config).state };
    ctx.status = 201;
    ctx.body = { data: await paymentPlans.buy(userOf(ctx).id, productId, asked) };
  });

  return router;
}
