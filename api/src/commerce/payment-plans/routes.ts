import Router from '@koa/router';
import { userOf } from '../../identity/http/caller';
import type { Policies } from '../../identity/http/policy';
import { BuyPaymentPlanBody } from './payment-plans.schemas';

/** Buying a course in instalments (docs/domain.md §23); the plan's subscription is then listed with the others. */
export function paymentPlanRoutes({
  allow,
  paymentPlans,
}: {
  allow: Policies;
  paymentPlans: { buy(userId: string, productId: string): Promise<{ url: string }> };
}) {
  const router = new Router();

  router.post('/payment-plans', allow.signedIn(), async (ctx) => {
    const { productId } = BuyPaymentPlanBody.parse(ctx.request.body);
    ctx.status = 201;
    ctx.body = { data: await paymentPlans.buy(userOf(ctx).id, productId) };
  });

  return router;
}
