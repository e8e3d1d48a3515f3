import { seesFinance } from '../../shared/finance';
import type { DashboardDeps } from './figures';
import { financeSummary } from './finance';
import type { Dashboard, DashboardQuery } from '../schemas/dashboard';
import { supportSummary } from './support';

/**
 * The console's front page over the last N days. Those who read the Finance page see money and activity: net
 * revenue is the split ledger's total, the very figure the Finance page shows for the same days (after the
 * provider's fees, refunds and disputes); gross is what was charged; refunds are counted when made, in part or in
 * full; money, sales and refunds are those of one currency, as on the Finance page (finance-dashboard.ts). Everyone
 * else (support) sees the work counted, without a finance figure: sales and refunds, disputes still open, emails
 * that failed (support-dashboard.ts).
 */
export function dashboardService(deps: DashboardDeps) {
  return {
    /** The finance view for those who read the Finance page; support's view, without finance figures, otherwise. */
    summary: (q: DashboardQuery, reader: { roles: readonly string[] }): Promise<Dashboard> =>
      seesFinance(reader.roles) ? financeSummary(deps, q.days, q.currency) : supportSummary(deps, q.days),
  };
}

export type DashboardService = ReturnType<typeof dashboardService>;
