import Router from '@koa/router';
import { actorOf } from '../../identity/http/caller';
import { IdParam } from '../../http/params';
import type { Policies } from '../../identity/http/policy';
import { PeriodRefundBody, SubscriptionCancelBody } from './console.schemas';
import type { SubscriptionConsole } from './console-actions';

/** The console's actions on subscriptions: ending one (support), refunding a paid period (finance). */
export function subscriptionConsoleRoutes({ allow, actions }: { allow: Policies; actions: SubscriptionConsole }) {
  const router = new Router();

  router.post('/subscriptions/:id/cancel', allow.roles('support', 'finance'), async (ctx) => {
    const body = SubscriptionCancelBody.parse(ctx.request.body);
    ctx.body = {
      data: await actions.cancel(IdParam.parse(ctx.params).id, body, actorOf(ctx), ctx.state.requestId ?? null),
    };
  });

  router.post('/subscription-periods/:id/refund', allow.roles('finance'), async (ctx) => {
    const body = PeriodRefundBody.parse(ctx.request.body);
    ctx.body = {
      data: await actions.refundPeriod(IdParam.parse(ctx.params).id, body, actorOf(ctx), ctx.state.requestId ?? null),
    };
  });

  return router;
}
