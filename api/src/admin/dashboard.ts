import type { Clock } from '../clock';
import type { Db } from '../db/connection';
import type { Dashboard, DashboardDay } from './schemas/dashboard';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The console's front page: money and activity over the last N days, straight from the tables. */
export function dashboardService({ db, clock }: { db: Db; clock: Clock }) {
  return {
    async summary(days: number): Promise<Dashboard> {
      const today = new Date(clock.now().toISOString().slice(0, 10));
      const since = new Date(today.getTime() - (days - 1) * DAY_MS);
      const sinceDay = since.toISOString().slice(0, 10);
      const todayDay = today.toISOString().slice(0, 10);

      const byDay = await db.raw(
        `SELECT to_char(d, 'YYYY-MM-DD') AS day,
                coalesce(c.gross, 0)::int AS gross, coalesce(c.refunded, 0)::int AS refunded, coalesce(p.purchases, 0)::int AS purchases
           FROM generate_series(?::date, ?::date, interval '1 day') AS d
           LEFT JOIN (SELECT (created_at AT TIME ZONE 'UTC')::date AS day, sum(amount) AS gross, sum(refund_amount) AS refunded
                        FROM merchant_charges WHERE created_at >= ? GROUP BY 1) c ON c.day = d::date
           LEFT JOIN (SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS purchases
                        FROM purchases WHERE created_at >= ? GROUP BY 1) p ON p.day = d::date
          ORDER BY d`,
        [sinceDay, todayDay, since, since],
      );
      const revenueByDay = byDay.rows as DashboardDay[];

      const [refundRow] = (await db('purchases')
        .where('createdAt', '>=', since)
        .where('status', 'Refunded')
        .count({ refunds: '*' })) as { refunds: number }[];
      const [learnerRow] = (await db('lessonProgress')
        .where('updatedAt', '>=', since)
        .countDistinct({ learners: 'userId' })) as { learners: number }[];
      const topProducts = (await db('purchases')
        .join('products', 'products.id', 'purchases.productId')
        .where('purchases.createdAt', '>=', since)
        .groupBy('products.id', 'products.name')
        .select('products.id as productId', 'products.name')
        .count({ purchases: '*' })
        .sum({ revenue: 'purchases.totalAmount' })
        .orderBy([
          { column: 'revenue', order: 'desc' },
          { column: 'purchases', order: 'desc' },
        ])
        .limit(5)) as { productId: string; name: string; purchases: number; revenue: number | string }[];

      const gross = revenueByDay.reduce((sum, d) => sum + d.gross, 0);
      const refunded = revenueByDay.reduce((sum, d) => sum + d.refunded, 0);
      return {
        days,
        since: sinceDay,
        revenueByDay,
        totals: {
          gross,
          refunded,
          net: gross - refunded,
          purchases: revenueByDay.reduce((sum, d) => sum + d.purchases, 0),
          refunds: Number(refundRow?.refunds ?? 0),
          activeLearners: Number(learnerRow?.learners ?? 0),
        },
        topProducts: topProducts.map((p) => ({
          ...p,
          purchases: Number(p.purchases),
          revenue: Number(p.revenue ?? 0),
        })),
      };
    },
  };
}

export type DashboardService = ReturnType<typeof dashboardService>;
