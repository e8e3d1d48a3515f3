import Router from '@koa/router';
import { actorOf } from '../../identity/http/caller';
import { IdParam } from '../../http/params';
import type { Policies } from '../../identity/http/policy';
import { MarkPaidBody } from './schemas';
import type { PayoutService } from './payouts';

/** Paying revenue-split recipients: balances, a run, a manual payout marked paid. Finance and admins only. */
export function payoutRoutes({ allow, payouts }: { allow: Policies; payouts: PayoutService }) {
  const router = new Router();

  router.get('/payouts/balances', allow.roles('finance'), async (ctx) => {
    ctx.body = { data: await payouts.balances() };
  });

  router.post('/payouts/run', allow.roles('finance'), async (ctx) => {
    ctx.body = { data: await payouts.run(actorOf(ctx), ctx.state.requestId ?? null) };
  });

  router.post('/payouts/:id/mark-paid', allow.roles('finance'), async (ctx) => {
    const { reference } = MarkPaidBody.parse(ctx.request.body);
    ctx.body = {
      data: await payouts.markPaid(IdParam.parse(ctx.params).id, reference, actorOf(ctx), ctx.state.requestId ?? null),
    };
  });

  return router;
}
