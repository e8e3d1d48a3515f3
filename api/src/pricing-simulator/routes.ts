import Router from '@koa/router';
import type { Context } from 'koa';
import { actorOf } from '../identity/http/caller';
import { IdParam } from '../http/params';
import type { Policies } from '../identity/http/policy';
import { RecurringQuery, SaveScenarioBody, SimulateQuery } from './schemas';
import type { PricingScenarios } from './scenarios';
import type { PricingSimulator } from './simulator';

/** The pricing simulator and its saved scenarios (support, finance and admins). */
export function pricingRoutes({
  allow,
  simulator,
  scenarios,
}: {
  allow: Policies;
  simulator: PricingSimulator;
  scenarios: PricingScenarios;
}) {
  const router = new Router();
  const staff = allow.roles('support', 'finance');
  const requestId = (ctx: Context) => (ctx.state.requestId as string) ?? null;

  router.get('/pricing/simulate', staff, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await simulator.simulate(SimulateQuery.parse(ctx.query));
  });
  router.get('/pricing/recurring', staff, async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await simulator.recurring(RecurringQuery.parse(ctx.query));
  });
  router.post('/pricing-scenarios/save', staff, async (ctx) => {
    const { name, query } = SaveScenarioBody.parse(ctx.request.body);
    ctx.status = 201;
    ctx.body = { data: await scenarios.save(name, query, actorOf(ctx), requestId(ctx)) };
  });
  router.post('/pricing-scenarios/run', staff, async (ctx) => {
    ctx.body = { data: await scenarios.runAll() };
  });
  router.post('/pricing-scenarios/:id/run', staff, async (ctx) => {
    ctx.body = { data: await scenarios.run(IdParam.parse(ctx.params).id) };
  });
  router.post('/pricing-scenarios/:id/accept', staff, async (ctx) => {
    ctx.body = { data: await scenarios.accept(IdParam.parse(ctx.params).id, actorOf(ctx), requestId(ctx)) };
  });
  return router;
}
