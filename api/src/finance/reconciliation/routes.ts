import Router from '@koa/router';
import { IdParam } from '../../http/params';
import type { Policies } from '../../identity/http/policy';
import type { ReconciliationService } from './reconciliation';
import { PeriodQuery } from './schemas';

/** Reconciliation with the processor: the period's answer, per processor payout, an import, a recovery. Finance only. */
export function reconciliationRoutes({
  allow,
  reconciliation,
}: {
  allow: Policies;
  reconciliation: ReconciliationService;
}) {
  const router = new Router();

  router.get('/reconciliation', allow.roles('finance'), async (ctx) => {
    ctx.body = { data: await reconciliation.report(PeriodQuery.parse(ctx.query)) };
  });

  router.get('/reconciliation/payouts', allow.roles('finance'), async (ctx) => {
    ctx.body = { data: await reconciliation.payouts(PeriodQuery.parse(ctx.query)) };
  });

  router.post('/reconciliation/import', allow.roles('finance'), async (ctx) => {
    ctx.body = { data: await reconciliation.import(PeriodQuery.parse(ctx.request.body ?? {})) };
  });

  router.post('/reconciliation/:id/recover', allow.roles('finance'), async (ctx) => {
    ctx.body = { data: await reconciliation.recover(IdParam.parse(ctx.params).id) };
  });

  return router;
}
