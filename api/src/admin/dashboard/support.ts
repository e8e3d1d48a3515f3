import { activeLearners, type DashboardDeps, PAID, period, REFUNDS } from './figures';
import type { SupportDashboard, SupportDashboardDay } from '../schemas/dashboard';

/** Support's view: the work counted (sales and refunds, disputes still open, emails that failed), no money. */
export async function supportSummary({ db, clock }: DashboardDeps, days: number): Promise<SupportDashboard> {
  const { since, sinceDay, todayDay } = period(clock, days);
  const byDay = await db.raw(
    `SELECT to_char(d, 'YYYY-MM-DD') AS day, coalesce(p.purchases, 0)::int AS purchases,
            coalesce(l.refunds, 0)::int AS refunds
       FROM generate_series(?::date, ?::date, interval '1 day') AS d
       LEFT JOIN (SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS purchases
                    FROM purchases WHERE created_at >= ? AND ${PAID} GROUP BY 1) p ON p.day = d::date
       LEFT JOIN (SELECT (created_at AT TIME ZONE 'UTC')::date AS day, ${REFUNDS} AS refunds
                    FROM split_lines WHERE created_at >= ? GROUP BY 1) l ON l.day = d::date
      ORDER BY d`,
    [sinceDay, todayDay, since, since],
  );
  const activityByDay = (byDay.rows as SupportDashboardDay[]).map((d) => ({
    day: String(d.day),
    purchases: Number(d.purchases),
    refunds: Number(d.refunds),
  }));
  const topProducts = await db.raw(
    `SELECT pr.id AS "productId", pr.name, p.purchases::int AS purchases
       FROM products pr
       JOIN (SELECT product_id, count(*) AS purchases FROM purchases WHERE created_at >= ? AND ${PAID}
              GROUP BY 1) p ON p.product_id = pr.id
      ORDER BY purchases DESC, pr.name
      LIMIT 5`,
    [since],
  );
  const [open] = (await db('merchantDisputes').where({ status: 'open' }).count({ n: '*' })) as { n: string }[];
  const [failed] = (await db('outboxEmails').where({ status: 'failed' }).count({ n: '*' })) as { n: string }[];
  return {
    view: 'support',
    days,
    since: sinceDay,
    activityByDay,
    totals: {
      purchases: activityByDay.reduce((total, d) => total + d.purchases, 0),
      refunds: activityByDay.reduce((total, d) => total + d.refunds, 0),
      openDisputes: Number(open?.n ?? 0),
      failedEmails: Number(failed?.n ?? 0),
      activeLearners: await activeLearners(db, since),
    },
    topProducts: (topProducts.rows as SupportDashboard['topProducts']).map((p) => ({
      ...p,
      purchases: Number(p.purchases),
    })),
  };
}
