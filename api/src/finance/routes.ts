import Router from '@koa/router';
import type { Policies } from '../identity/http/policy';
import { EXPORT_KINDS } from '../shared/finance';
import type { FinanceExports } from './exports';
import { PeriodQuery, SummaryQuery, TaxPeriod, TaxSummaryQuery } from './schemas';
import type { FinanceSummary } from './summary';
import type { TaxReport } from './tax-report';

/**
 * Finance: CSV exports for scripts and the console, the ledger's charts, and the tax report for filing with its
 * summary. Finance and admins only.
 */
export function financeRoutes({
  allow,
  exports,
  summary,
  tax,
}: {
  allow: Policies;
  exports: FinanceExports;
  summary: FinanceSummary;
  tax: TaxReport;
}) {
  const router = new Router();

  for (const kind of EXPORT_KINDS) {
    router.get(`/exports/${kind}.csv`, allow.roles('finance'), async (ctx) => {
      const query = PeriodQuery.parse(ctx.query);
      // The row count goes first in a header, so the console can show progress while the rows stream.
      const { filename, total, body } = await exports.open(kind, query);
      // Sent as written, not compressed: the header goes out at once (a compressor holds it for more), and a
      // million rows cost no CPU to squeeze.
      ctx.compress = false;
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

  router.get('/finance/tax-report.csv', allow.roles('finance'), async (ctx) => {
    // No X-Total-Rows: a few rows, each summed over the whole period, so none is known before all are.
    const { filename, body } = await tax.csv(TaxPeriod.parse(ctx.query));
    // Sent as written: a compressor would hold the header line until the sums are done.
    ctx.compress = false;
    ctx.set('Content-Disposition', `attachment; filename="${filename}"`);
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = body;
  });

  router.get('/finance/tax-summary', allow.roles('finance'), async (ctx) => {
    ctx.body = await tax.summary(TaxSummaryQuery.parse(ctx.query));
  });

  return router;
}
