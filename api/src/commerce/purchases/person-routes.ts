import Router from '@koa/router';
import { actorOf } from '../../identity/http/caller';
import { IdParam } from '../../http/params';
import type { Policies } from '../../identity/http/policy';
import type { Comps } from './comps';
import type { PurchaseTotalsService } from './totals';
import { CompBody, type CompGiven, type PurchaseTotals } from '../schemas';

/**
 * A person's purchases on their page in the console: their lifetime totals (staff who read purchases), and a course
 * given to them (support and admins, as for the other purchase actions).
 */
export function personPurchaseRoutes({
  allow,
  totals,
  comps,
}: {
  allow: Policies;
  totals: PurchaseTotalsService;
  comps: Comps;
}) {
  const router = new Router();

  router.get('/users/:id/purchase-totals', allow.roles('support', 'finance'), async (ctx) => {
    ctx.body = (await totals.ofPerson(IdParam.parse(ctx.params).id)) satisfies PurchaseTotals;
  });

  router.post('/users/:id/comps', allow.roles('support'), async (ctx) => {
    const input = CompBody.parse(ctx.request.body);
    const given = await comps.give(IdParam.parse(ctx.params).id, input, {
      actor: actorOf(ctx),
      requestId: ctx.state.requestId ?? null,
    });
    ctx.status = 201;
    ctx.body = { data: given satisfies CompGiven };
  });

  return router;
}
