import type { Db } from '../../db/connection';
import { mostSold } from '../../shared/finance';
import { activeLearners, DAY_MS, type DashboardDeps, PAID, period, REFUNDS } from './figures';
import type { DashboardDay, FinanceDashboard } from '../schemas/dashboard';

const NO_MONEY = { gross: 0, tax: 0, fees: 0, refunded: 0, disputed: 0, net: 0, refunds: 0, purchases: 0 };

/**
 * The period's money per day and currency, each source read once (charges, the split ledger, paid purchases), so
 * that listing the currencies and choosing one costs no second pass over the period.
 */
async function moneyByDayAndCurrency(db: Db, since: Date): Promise<(DashboardDay & { currency: string })[]> {
  const rows = await db.raw(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, currency, sum(gross)::bigint AS gross, sum(tax)::bigint AS tax,
            sum(fees)::bigint AS fees, sum(refunded)::bigint AS refunded, sum(disputed)::bigint AS disputed,
            sum(net)::bigint AS net, sum(refunds)::int AS refunds, sum(purchases)::int AS purchases
       FROM (SELECT (created_at AT TIME ZONE 'UTC')::date AS day, currency, sum(amount) AS gross,
                    sum(tax_amount) AS tax, sum(fee) AS fees, 0 AS refunded, 0 AS disputed, 0 AS net, 0 AS refunds,
                    0 AS purchases
               FROM merchant_charges WHERE created_at >= ? GROUP BY 1, 2
             UNION ALL
             SELECT (created_at AT TIME ZONE 'UTC')::date, currency, 0, 0, 0,
                    coalesce(-sum(amount) FILTER (WHERE kind = 'refund'), 0),
                    coalesce(-sum(amount) FILTER (WHERE kind IN ('dispute', 'dispute-won')), 0),
                    sum(amount), ${REFUNDS}, 0
               FROM split_lines WHERE created_at >= ? GROUP BY 1, 2
             UNION ALL
             SELECT (created_at AT TIME ZONE 'UTC')::date, currency, 0, 0, 0, 0, 0, 0, 0, count(*)
               FROM purchases WHERE created_at >= ? AND ${PAID} GROUP BY 1, 2) AS money
      GROUP BY day, currency`,
    [since, since, since],
  );
  return (rows.rows as Record<keyof DashboardDay | 'currency', string | number>[]).map((d) => ({
    day: String(d.day),
    currency: String(d.currency),
    gross: Number(d.gross),
    tax: Number(d.tax),
    fees: Number(d.fees),
    refunded: Number(d.refunded),
    disputed: Number(d.disputed),
    net: Number(d.net),
    refunds: Number(d.refunds),
    purchases: Number(d.purchases),
  }));
}

/** The period's five products that earned most in the currency shown. */
async function topEarners(db: Db, since: Date, currency: string) {
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
  return (topProducts.rows as { productId: string; name: string; purchases: number; revenue: number | string }[]).map(
    (p) => ({ ...p, purchases: Number(p.purchases), revenue: Number(p.revenue) }),
  );
}

/** The finance view: money per day in one currency, its totals, and the products that earned most. */
export async function financeSummary(
  { db, clock }: DashboardDeps,
  days: number,
  asked: string | undefined,
): Promise<FinanceDashboard> {
  const { since, sinceDay } = period(clock, days);
  const money = await moneyByDayAndCurrency(db, since);

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
  const topProducts = await topEarners(db, since, currency);

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
      tax: sum('tax'),
      fees: sum('fees'),
      refunded: sum('refunded'),
      disputed: sum('disputed'),
      net: sum('net'),
      purchases: sum('purchases'),
      refunds: sum('refunds'),
      activeLearners: await activeLearners(db, since),
    },
    topProducts,
  };
}
