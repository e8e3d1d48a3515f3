import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { authOf, userOf } from '../../identity/http/caller';
import type { Policies } from '../../identity/http/policy';
import { AppError } from '../../shared/errors';
import type { EarningsService } from './earnings';
import { EarningsQuery, StatementParam } from './schemas';

/**
 * Support viewing the storefront as someone sees it as them, but not their money (docs/domain.md §19.1): their
 * earnings, statements and payout references stay theirs and finance's.
 */
async function notWhileViewingAs(ctx: Context, next: Next) {
  const auth = authOf(ctx);
  if (auth?.method === 'session' && auth.viewAs)
    throw new AppError('forbidden', 'A person’s earnings are theirs and finance’s: support cannot read them.');
  return next();
}

/**
 * A revenue-split recipient's own earnings under /api/store: always the signed-in person's, so nobody can ask for
 * someone else's. Never cached by a shared cache: it is their money.
 */
export function earningsRoutes({ allow, earnings }: { allow: Policies; earnings: EarningsService }) {
  const router = new Router();
  const own = [allow.signedIn(), notWhileViewingAs];

  router.get('/earnings', ...own, async (ctx) => {
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = await earnings.overview(userOf(ctx).id, EarningsQuery.parse(ctx.query));
  });

  router.get('/earnings/statements/:month.csv', ...own, async (ctx) => {
    const { filename, text } = await earnings.statementCsv(userOf(ctx).id, StatementParam.parse(ctx.params).month);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.set('Content-Disposition', `attachment; filename="${filename}"`);
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = text;
  });

  router.get('/earnings/statements/:month.pdf', ...own, async (ctx) => {
    const { filename, bytes } = await earnings.statementPdf(userOf(ctx).id, StatementParam.parse(ctx.params).month);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.set('Content-Disposition', `attachment; filename="${filename}"`);
    ctx.type = 'application/pdf';
    ctx.body = Buffer.from(bytes);
  });

  return router;
}
