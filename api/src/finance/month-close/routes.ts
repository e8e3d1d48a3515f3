import Router from '@koa/router';
import { actorOf } from '../../identity/http/caller';
import type { Policies } from '../../identity/http/policy';
import type { MonthCloseService } from './month-closes';
import { MonthCloseBody, MonthParam } from './schemas';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Closing a month and its workbook; finance and admins. Listing and reading closed months: the generic resource. */
export function monthCloseRoutes({ allow, monthCloses }: { allow: Policies; monthCloses: MonthCloseService }) {
  const router = new Router();

  router.post('/month-closes', allow.roles('finance'), async (ctx) => {
    const { month } = MonthCloseBody.parse(ctx.request.body);
    ctx.status = 201;
    ctx.body = await monthCloses.close(month, actorOf(ctx), ctx.state.requestId ?? null);
  });

  router.get('/month-closes/next', allow.roles('finance'), async (ctx) => {
    ctx.body = { data: await monthCloses.next() };
  });

  router.get('/month-closes/:id/export.xlsx', allow.roles('finance'), async (ctx) => {
    const { filename, body } = await monthCloses.workbook(MonthParam.parse(ctx.params).id);
    ctx.set('Content-Disposition', `attachment; filename="${filename}"`);
    ctx.set('Cache-Control', 'no-store');
    ctx.type = XLSX;
    ctx.body = body;
  });

  return router;
}
