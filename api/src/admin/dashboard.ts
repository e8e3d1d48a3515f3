import type { Clock } from '../clock';
import type { Db } from '../db/connection';
import { mostSold, seesFinance } from '../shared/finance';
import type {
  Dashboard,
  DashboardDay,
  DashboardQuery,
  FinanceDashboard,
  SupportDashboard,
  SupportDashboardDay,
} from './schemas/dashboard';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A sale: a purchase someone paid for (a seat taken from a team, or a free or 100 %-off purchase, is not one). */
const PAID = `total_amount > 0 AND redeemed_bulk_coupon_id IS NULL`;

const NO_MONEY = { gross: 0, fees: 0, refunded: 0, disputed: 0, net: 0, refunds: 0, purchases: 0 };

/** Refunds made, one per refund of a charge, counted from the split ledger's refund lines (the finance view's count). */
const REFUNDS = `count(DISTINCT (merchant_charge_id, reference)) FILTER (WHERE kind = 'refund')`;

/**
 * The console's front page over the last N days. Those who read the Finance page see money and activity: net
 * revenue is the split ledger's total, the very figure the Finance page shows for the same days (after the
 * provider's fees, refunds and disputes); gross is what was charged; refunds are counted when made, in part or in
 * full; money, sales and refunds are those of one currency, as on the Finance page. Everyone else (support) sees
 * the work counted, without a finance figure: sales and refunds, disputes still open, emails that failed.
 */
export function dashboardService({ db, clock }: { db: Db; clock: Clock }) {
  function period(days: number) {
    const today = new Date(clock.now().toISOString().slice(0, 10));
    const since = new Date(today.getTime() - (days - 1) * DAY_MS);
    return { since, sinceDay: since.toISOString().slice(0, 10), todayDay: today.toISOString().slice(0, 10) };
  }

  async function activeLearners(since: Date): Promise<number> {
    const [row] = (await db('lessonProgress')
      .where('updatedAt', '>=', since)
      .countDistinct({ learners: 'userId' })) as {
      learners: number;
    }[];
    return Number(row?.learners ?? 0);
  }

  async function supportSummary(days: number): Promise<SupportDashboard> {
    const { since, sinceDay, todayDay } = period(days);
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
        activeLearners: await activeLearners(since),
      },
      topProducts: (topProducts.rows as SupportDashboard['topProducts']).map((p) => ({
        ...p,
        purchases: Number(p.purchases),
      })),
    };
  }

  /**
   * The period's money per day and currency, each source read once (charges, the split ledger, paid purchases), so
   * that listing the currencies and choosing one costs no second pass over the period.
   */
  async function moneyByDayAndCurrency(since: Date): Promise<(DashboardDay & { currency: string })[]> {
    const rows = await db.raw(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, currency, sum(gross)::bigint AS gross, sum(fees)::bigint AS fees,
              sum(refunded)::bigint AS refunded, sum(disputed)::bigint AS disputed, sum(net)::bigint AS net,
              sum(refunds)::int AS refunds, sum(purchases)::int AS purchases
         FROM (SELECT (created_at AT TIME ZONE 'UTC')::date AS day, currency, sum(amount) AS gross, sum(fee) AS fees,
                      0 AS refunded, 0 AS disputed, 0 AS net, 0 AS refunds, 0 AS purchases
                 FROM merchant_charges WHERE created_at >= ? GROUP BY 1, 2
               UNION ALL
               SELECT (created_at AT TIME ZONE 'UTC')::date, currency, 0, 0,
                      coalesce(-sum(amount) FILTER (WHERE kind = 'refund'), 0),
                      coalesce(-sum(amount) FILTER (WHERE kind IN ('dispute', 'dispute-won')), 0),
                      sum(amount), ${REFUNDS}, 0
                 FROM split_lines WHERE created_at >= ? GROUP BY 1, 2
               UNION ALL
               SELECT (created_at AT TIME ZONE 'UTC')::date, currency, 0, 0, 0, 0, 0, 0, count(*)
                 FROM purchases WHERE created_at >= ? AND ${PAID} GROUP BY 1, 2) AS money
        GROUP BY day, currency`,
      [since, since, since],
    );
    return (rows.rows as Record<keyof DashboardDay | 'currency', string | number>[]).map((d) => ({
      day: String(d.day),
      currency: String(d.currency),
      gross: Number(d.gross),
      fees: Number(d.fees),
      refunded: Number(d.refunded),
      disputed: Number(d.disputed),
      net: Number(d.net),
      refunds: Number(d.refunds),
      purchases: Number(d.purchases),
    }));
  }

  async function financeSummary(days: number, asked: string | undefined): Promise<FinanceDashboard> {
    const { since, sinceDay } = period(days);
    const money = await moneyByDayAndCurrency(since);

    // Amounts in two currencies do not add up: one at a time, by default the one with the most sales in the period.
    const sales = new Map<string, number>();
    for (const d of money) sales.set(d.currency, (sales.get(d.currency) ?? 0) + d.purchases);
    const currencies = [...sales.keys()].sort();
    const currency = asked ?? mostSold(sales);

    const inCurrency = new Map(money.filter((d) => d.currency === currency).map(({ currency: _, ...d }) => [d.day, d]));
    const revenueByDay = Array.from({ length: days }, (_, i): DashboardDay => {
      const day = new Date(since.getTime() + i * DAY_MS).toISOString().slice(0, 10);
      return inCurrency.get(day) ?? { ...NO_MONEY, day };
    });

    const topProducts = await db.raw(
      `SELECT pr.id AS "productId", pr.name, coalesce(p.purchases, 0)::int AS purchases, coalesce(l.net, 0)::bigint AS revenue
           FROM products pr
           LEFT JOIN (SELECT product_id, count(*) AS purchases FROM purchases
                       WHERE created_at >= ? AND ${PAID} AND currency = ? GROUP BY 1) p ON p.product_id = pr.id
           LEFT JOIN (SELECT product_id, sum(amount) AS net FROM split_lines
                       WHERE created_at >= ? AND currency = ? GROUP BY 1) l ON l.product_id = pr.id
          WHERE p.purchases IS NOT NULL OR l.net IS NOT NULL
          ORDER BY revenue DESC, purchases DESC, pr.name
          LIMIT 5`,
      [since, currency, since, currency],
    );

    const sum = (key: Exclude<keyof DashboardDay, 'day'>) => revenueByDay.reduce((total, d) => total + d[key], 0);
    return {
      view: 'finance',
      days,
      since: sinceDay,
      currency,
      currencies,
      revenueByDay,
      totals: {
        gross: sum('gross'),
        fees: sum('fees'),
        refunded: sum('refunded'),
        disputed: sum('disputed'),
        net: sum('net'),
        purchases: sum('purchases'),
        refunds: sum('refunds'),
        activeLearners: await activeLearners(since),
      },
      topProducts: (
        topProducts.rows as { productId: string; name: string; purchases: number; revenue: number | string }[]
      ).map((p) => ({ ...p, purchases: Number(p.purchases), revenue: Number(p.revenue) })),
    };
  }

  return {
    /** The finance view for those who read the Finance page; support's view, without finance figures, otherwise. */
    summary: (q: DashboardQuery, reader: { roles: readonly string[] }): Promise<Dashboard> =>
      seesFinance(reader.roles) ? financeSummary(q.days, q.currency) : supportSummary(q.days),
  };
}

export type DashboardService = ReturnType<typeof dashboardService>;
