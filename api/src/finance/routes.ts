import Router from '@koa/router';
import { z } from 'zod';
import type { Policies } from '../http/policy';
import { PeriodQuery, type ExportKind, type FinanceExports } from './exports';
import type { FinanceSummary } from './summary';

const MAX_SUMMARY_DAYS = 366;

/** Finance: CSV exports for scripts and the console, and the ledger's charts. Finance and admins only. */
export function financeRoutes({ allow, exports, summary }: { allow: Policies; exports: FinanceExports; summary: FinanceSummary }) {
  const router = new Router();

  for (const kind of ['charges', 'split-lines', 'recipients'] as ExportKind[]) {
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
    const query = PeriodQuery.and(z.object({ currency: z.string().regex(/^[a-z]{3}$/, 'must be a currency code such as usd').default('usd') })).refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < MAX_SUMMARY_DAYS, {
      message: `a chart covers at most ${MAX_SUMMARY_DAYS} days`,
      path: ['to'],
    }).parse(ctx.query);
    ctx.body = await summary.summary(query);
  });

  return router;
}
