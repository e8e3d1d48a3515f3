import Router from '@koa/router';
import type { Policies } from '../identity/http/policy';
import { EXPORT_KINDS } from '../shared/finance';
import type { FinanceExports } from './exports';
import { PeriodQuery, SummaryQuery } from './schemas';
import type { FinanceSummary } from './summary';

/** Finance: CSV exports for scripts and the console, and the ledger's charts. Finance and admins only. */
export function financeRoutes({
  allow,
  exports,
  summary,
}: {
  allow: Policies;
  exports: FinanceExports;
  summary: FinanceSummary;
}) {
  const router = new Router();

  for (const kind of EXPORT_KINDS) {
    router.get(`/exports/${kind}.csv`, allow.roles('finance'), async (ctx) => {
      const query = PeriodQuery.parse(ctx.query);
      // The row count goes first in a header, so the console can show progress while the rows stream.
      const { filename, total, body } = await exports.open(kind, query);
      ctx.set('Content-Disposition', `attachment; filename="${filename}"`);
      ctx.set('X-Total-Rows', String(total));
      ctx.set('Cache-Control', 'no-store');
      ctx.type = 'text/csv; charset=utf-8';
      ctx.body = body;
    });
  }

  router.get('/finance/summary', allow.roles('finance'), async (ctx) => {
    ctx.body = await summary.summary(SummaryQuery.parse(ctx.query));
  });

  return router;
}
