import { activityByDay, mostBought } from '../../finance/rollups/sales-figures';
import { activeLearners, type DashboardDeps, period } from './figures';
import type { SupportDashboard } from '../schemas/dashboard';

/** Support's view: the work counted (sales and refunds, disputes still open, emails that failed), no money. */
export async function supportSummary({ db, clock }: DashboardDeps, days: number): Promise<SupportDashboard> {
  const { since, sinceDay, todayDay } = period(clock, days);
  const activity = await activityByDay(db, sinceDay, todayDay);
  const topProducts = await mostBought(db, sinceDay);
  const [open] = (await db('merchantDisputes').where({ status: 'open' }).count({ n: '*' })) as { n: string }[];
  const [failed] = (await db('outboxEmails').where({ status: 'failed' }).count({ n: '*' })) as { n: string }[];
  return {
    view: 'support',
    days,
    since: sinceDay,
    activityByDay: activity,
    totals: {
      purchases: activity.reduce((total, d) => total + d.purchases, 0),
      refunds: activity.reduce((total, d) => total + d.refunds, 0),
      openDisputes: Number(open?.n ?? 0),
      failedEmails: Number(failed?.n ?? 0),
      activeLearners: await activeLearners(db, since),
    },
    topProducts,
  };
}
