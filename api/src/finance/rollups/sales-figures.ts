import type { Db } from '../../db/connection';
import { monthsAndDays, rowsInPeriod } from './period';

const PURCHASES = { daily: 'finance_daily_purchases', monthly: 'finance_monthly_purchases' };
const LEDGER = { daily: 'finance_daily_ledger_products', monthly: 'finance_monthly_ledger_products' };

/**
 * The console dashboard's money and counts per UTC day, read from the daily rollups of charges, paid purchases and
 * the split ledger (kept exact by triggers, migrations/20261130010000_create_finance_daily_rollups.ts), summed over
 * their shards. Days are YYYY-MM-DD (UTC); `since` is the first day, and like the ledger's own rows nothing later
 * is left out.
 */

/** One day's money and counts in one currency. */
export interface DayMoney {
  day: string;
  currency: string;
  gross: number;
  tax: number;
  fees: number;
  refunded: number;
  disputed: number;
  net: number;
  refunds: number;
  purchases: number;
}

/**
 * Each day and currency with a charge, a ledger line or a paid purchase since `since`: charged (gross, tax, fees),
 * refunded and disputed (positive), the ledger's net, refunds made and paid purchases.
 */
export async function moneyByDayAndCurrency(db: Db, since: string): Promise<DayMoney[]> {
  const { rows } = await db.raw(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, currency, sum(gross)::bigint AS gross, sum(tax)::bigint AS tax,
            sum(fees)::bigint AS fees, sum(refunded)::bigint AS refunded, sum(disputed)::bigint AS disputed,
            sum(net)::bigint AS net, sum(refunds)::int AS refunds, sum(purchases)::int AS purchases
       FROM (SELECT day, currency, sum(gross) AS gross, sum(tax) AS tax, sum(fees) AS fees, 0 AS refunded,
                    0 AS disputed, 0 AS net, 0 AS refunds, 0 AS purchases
               FROM finance_daily_charges WHERE day >= ?::date GROUP BY 1, 2 HAVING sum(charges) > 0
             UNION ALL
             SELECT day, currency, 0, 0, 0, -sum(refunds), -sum(disputes), sum(total), sum(refunds_made), 0
               FROM finance_daily_ledger WHERE day >= ?::date GROUP BY 1, 2 HAVING sum(lines) > 0
             UNION ALL
             SELECT day, currency, 0, 0, 0, 0, 0, 0, 0, sum(paid)
               FROM finance_daily_purchase_totals WHERE day >= ?::date GROUP BY 1, 2 HAVING sum(paid) > 0) AS money
      GROUP BY day, currency`,
    [since, since, since],
  );
  return (rows as Record<keyof DayMoney, string | number>[]).map((d) => ({
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

/** The five products that earned most in one currency since `since` (the ledger's net, then paid purchases). */
export async function topEarners(db: Db, since: string, currency: string) {
  const period = monthsAndDays(since, null);
  const paid = rowsInPeriod(PURCHASES, ['product_id'], ['paid'], 'currency = ?', [currency], period);
  const net = rowsInPeriod(LEDGER, ['product_id'], ['total', 'lines'], 'currency = ?', [currency], period);
  const { rows } = await db.raw(
    `SELECT pr.id AS "productId", pr.name, coalesce(p.purchases, 0)::int AS purchases,
            coalesce(l.net, 0)::bigint AS revenue
       FROM (SELECT product_id, sum(paid) AS purchases FROM (${paid.sql}) AS r GROUP BY 1 HAVING sum(paid) > 0) p
       FULL JOIN (SELECT product_id, sum(total) AS net FROM (${net.sql}) AS r
                   GROUP BY 1 HAVING sum(lines) > 0) l USING (product_id)
       JOIN products pr ON pr.id = product_id
      ORDER BY revenue DESC, purchases DESC, pr.name, pr.id
      LIMIT 5`,
    [...paid.bindings, ...net.bindings],
  );
  return (rows as { productId: string; name: string; purchases: number; revenue: number | string }[]).map((p) => ({
    ...p,
    purchases: Number(p.purchases),
    revenue: Number(p.revenue),
  }));
}

/** Paid purchases and refunds made on each day from `from` to `to` (every currency), every day listed. */
export async function activityByDay(db: Db, from: string, to: string) {
  const { rows } = await db.raw(
    `SELECT to_char(d, 'YYYY-MM-DD') AS day, coalesce(p.purchases, 0)::int AS purchases,
            coalesce(l.refunds, 0)::int AS refunds
       FROM generate_series(?::date, ?::date, interval '1 day') AS d
       LEFT JOIN (SELECT day, sum(paid) AS purchases FROM finance_daily_purchase_totals
                   WHERE day BETWEEN ?::date AND ?::date GROUP BY 1) p ON p.day = d::date
       LEFT JOIN (SELECT day, sum(refunds_made) AS refunds FROM finance_daily_ledger
                   WHERE day BETWEEN ?::date AND ?::date GROUP BY 1) l ON l.day = d::date
      ORDER BY d`,
    [from, to, from, to, from, to],
  );
  return (rows as { day: string; purchases: number; refunds: number }[]).map((d) => ({
    day: String(d.day),
    purchases: Number(d.purchases),
    refunds: Number(d.refunds),
  }));
}

/** The five products with the most paid purchases since `since` (every currency). */
export async function mostBought(db: Db, since: string) {
  const paid = rowsInPeriod(PURCHASES, ['product_id'], ['paid'], 'true', [], monthsAndDays(since, null));
  const { rows } = await db.raw(
    `SELECT pr.id AS "productId", pr.name, p.purchases::int AS purchases
       FROM (SELECT product_id, sum(paid) AS purchases FROM (${paid.sql}) AS r GROUP BY 1 HAVING sum(paid) > 0) p
       JOIN products pr ON pr.id = p.product_id
      ORDER BY purchases DESC, pr.name, pr.id
      LIMIT 5`,
    paid.bindings,
  );
  return (rows as { productId: string; name: string; purchases: number }[]).map((p) => ({
    ...p,
    purchases: Number(p.purchases),
  }));
}
