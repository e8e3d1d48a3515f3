import Router from '@koa/router';
import type { Policies } from '../identity/http/policy';
import { SummaryQuery } from './schemas';
import type { SubscriptionFigures } from './subscription-figures';

/** Recurring revenue on the Finance page: MRR, subscribers, trials, churn and failed payments. Finance and admins. */
export function subscriptionFigureRoutes({ allow, figures }: { allow: Policies; figures: SubscriptionFigures }) {
  const router = new Router();
  router.get('/finance/subscriptions', allow.roles('finance'), async (ctx) => {
    const { from, to } = SummaryQuery.parse(ctx.query);
    ctx.body = await figures.figures({ from, to });
  });
  return router;
}
