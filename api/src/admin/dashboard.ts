import type { Clock } from '../clock';
import type { Db } from '../db/connection';
import type { Dashboard, DashboardDay } from './schemas/dashboard';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A sale: a purchase someone paid for (a seat taken from a team, or a free or 100 %-off purchase, is not one). */
const PAID = `total_amount > 0 AND redeemed_bulk_coupon_id IS NULL`;

/**
 * The console's front page: money and activity over the last N days. Net revenue is the split ledger's total, the
 * very figure the Finance page shows for the same days (after the provider's fees, refunds and disputes); gross is
 * what was charged; refunds are counted when made, in part or in full.
 */
export function dashboardService({ db, clock }: { db: Db; clock: Clock }) {
  return {
    async summary(days: number): Promise<Dashboard> {
      const today = new Date(clock.now().toISOString().slice(0, 10));
      const since = new Date(today.getTime() - (days - 1) * DAY_MS);
      const sinceDay = since.toISOString().slice(0, 10);
      const todayDay = today.toISOString().slice(0, 10);

      const byDay = await db.raw(
        `SELECT to_char(d, 'YYYY-MM-DD') AS day,
                coalesce(c.gross, 0)::bigint AS gross, coalesce(c.fees, 0)::bigint AS fees,
                coalesce(l.refunded, 0)::bigint AS refunded, coalesce(l.disputed, 0)::bigint AS disputed,
                coalesce(l.net, 0)::bigint AS net, coalesce(l.refunds, 0)::int AS refunds,
                coalesce(p.purchases, 0)::int AS purchases
           FROM generate_series(?::date, ?::date, interval '1 day') AS d
           LEFT JOIN (SELECT (created_at AT TIME ZONE 'UTC')::date AS day, sum(amount) AS gross, sum(fee) AS fees
                        FROM merchant_charges WHERE created_at >= ? GROUP BY 1) c ON c.day = d::date
           LEFT JOIN (SELECT (created_at AT TIME ZONE 'UTC')::date AS day, sum(amount) AS net,
                             -sum(amount) FILTER (WHERE kind = 'refund') AS refunded,
                             -sum(amount) FILTER (WHERE kind IN ('dispute', 'dispute-won')) AS disputed,
                             count(DISTINCT (merchant_charge_id, reference)) FILTER (WHERE kind = 'refund') AS refunds
                        FROM split_lines WHERE created_at >= ? GROUP BY 1) l ON l.day = d::date
           LEFT JOIN (SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS purchases
                        FROM purchases WHERE created_at >= ? AND ${PAID} GROUP BY 1) p ON p.day = d::date
          ORDER BY d`,
        [sinceDay, todayDay, since, since, since],
      );
      const revenueByDay = (byDay.rows as Record<keyof DashboardDay, string | number>[]).map((d): DashboardDay => ({
        day: String(d.day),
        gross: Number(d.gross),
        fees: Number(d.fees),
        refunded: Number(d.refunded),
        disputed: Number(d.disputed),
        net: Number(d.net),
        refunds: Number(d.refunds),
        purchases: Number(d.purchases),
      }));

      const [learnerRow] = (await db('lessonProgress')
        .where('updatedAt', '>=', since)
        .countDistinct({ learners: 'userId' })) as { learners: number }[];
      const topProducts = await db.raw(
        `SELECT pr.id AS "productId", pr.name, coalesce(p.purchases, 0)::int AS purchases, coalesce(l.net, 0)::bigint AS revenue
           FROM products pr
           LEFT JOIN (SELECT product_id, count(*) AS purchases FROM purchases WHERE created_at >= ? AND ${PAID}
                       GROUP BY 1) p ON p.product_id = pr.id
           LEFT JOIN (SELECT product_id, sum(amount) AS net FROM split_lines WHERE created_at >= ? GROUP BY 1) l
                  ON l.product_id = pr.id
          WHERE p.purchases IS NOT NULL OR l.net IS NOT NULL
          ORDER BY revenue DESC, purchases DESC, pr.name
          LIMIT 5`,
        [since, since],
      );

      const sum = (key: Exclude<keyof DashboardDay, 'day'>) => revenueByDay.reduce((total, d) => total + d[key], 0);
      return {
        days,
        since: sinceDay,
        revenueByDay,
        totals: {
          gross: sum('gross'),
          fees: sum('fees'),
          refunded: sum('refunded'),
          disputed: sum('disputed'),
          net: sum('net'),
          purchases: sum('purchases'),
          refunds: sum('refunds'),
          activeLearners: Number(learnerRow?.learners ?? 0),
        },
        topProducts: (
          topProducts.rows as { productId: string; name: string; purchases: number; revenue: number | string }[]
        ).map((p) => ({ ...p, purchases: Number(p.purchases), revenue: Number(p.revenue) })),
      };
    },
  };
}

export type DashboardService = ReturnType<typeof dashboardService>;
