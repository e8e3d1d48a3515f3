import Router from '@koa/router';
import type { Policies } from '../identity/http/policy';
import { ReportPeriod, ReportQuery } from './schemas';
import type { FinanceReports } from './reports';

/**
 * The console's reports on money going back: refunds by reason and product, and disputes at stake. Support makes
 * the refunds and answers the disputes, finance accounts for them: both may read (admins always may).
 */
export function reportRoutes({ allow, reports }: { allow: Policies; reports: FinanceReports }) {
  const router = new Router();

  router.get('/reports/refunds', allow.roles('support', 'finance'), async (ctx) => {
    ctx.body = await reports.refunds(ReportQuery.parse(ctx.query));
  });

  router.get('/reports/refunds.csv', allow.roles('support', 'finance'), async (ctx) => {
    // The row count goes first in a header, so the console can show progress while the rows stream.
    const { filename, total, body } = await reports.refundsCsv(ReportPeriod.parse(ctx.query));
    ctx.set('Content-Disposition', `attachment; filename="${filename}"`);
    ctx.set('X-Total-Rows', String(total));
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = body;
  });

  router.get('/reports/disputes', allow.roles('support', 'finance'), async (ctx) => {
    ctx.body = await reports.disputes(ReportQuery.parse(ctx.query));
  });

  return router;
}
