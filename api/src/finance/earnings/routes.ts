import Router from '@koa/router';
import { userOf } from '../../identity/http/caller';
import type { Policies } from '../../identity/http/policy';
import type { EarningsService } from './earnings';
import { EarningsQuery, StatementParam } from './schemas';

/**
 * A revenue-split recipient's own earnings under /api/store: always the signed-in person's, so nobody can ask for
 * someone else's. Never cached by a shared cache: it is their money.
 */
export function earningsRoutes({ allow, earnings }: { allow: Policies; earnings: EarningsService }) {
  const router = new Router();

  router.get('/earnings', allow.signedIn(), async (ctx) => {
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = await earnings.overview(userOf(ctx).id, EarningsQuery.parse(ctx.query));
  });

  router.get('/earnings/statements/:month.csv', allow.signedIn(), async (ctx) => {
    const { filename, text } = await earnings.statementCsv(userOf(ctx).id, StatementParam.parse(ctx.params).month);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.set('Content-Disposition', `attachment; filename="${filename}"`);
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = text;
  });

  router.get('/earnings/statements/:month.pdf', allow.signedIn(), async (ctx) => {
    const { filename, bytes } = await earnings.statementPdf(userOf(ctx).id, StatementParam.parse(ctx.params).month);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.set('Content-Disposition', `attachment; filename="${filename}"`);
    ctx.type = 'application/pdf';
    ctx.body = Buffer.from(bytes);
  });

  return router;
}
