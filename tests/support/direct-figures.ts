import type { Db } from '../../api/src/db/connection';
import { mostSold } from '../../api/src/shared/finance';

/**
 * The dashboard's and the finance summary's answers summed straight from the ledger's tables (charges, purchases,
 * split lines, lesson progress), as they were read before the daily rollups: the oracle the rollups must equal.
 */

const DAY_MS = 86_400_000;
const PAID = `total_amount > 0 AND redeemed_bulk_coupon_id IS NULL`;
const REFUNDS = `count(DISTINCT (merchant_charge_id, reference)) FILTER (WHERE kind = 'refund')`;
const AMOUNTS = `
  COALESCE(sum(l.amount) FILTER (WHERE l.kind = 'sale'), 0)::bigint AS sales,
  COALESCE(sum(l.amount) FILTER (WHERE l.kind = 'refund'), 0)::bigint AS refunds,
  COALESCE(sum(l.amount) FILTER (WHERE l.kind IN ('dispute', 'dispute-won')), 0)::bigint AS disputes,
  COALESCE(sum(l.amount), 0)::bigint AS total`;

type Row = Record<string, string | number | null>;
const numeric = (row: Row, keep: string[]) =>
  Object.fromEntries(Object.entries(row).map(([k, v]) => [k, keep.includes(k) || v === null ? v : Number(v)]));

function period(now: Date, days: number) {
  const today = new Date(now.toISOString().slice(0, 10));
  const since = new Date(today.getTime() - (days - 1) * DAY_MS);
  return { since, sinceDay: since.toISOString().slice(0, 10), todayDay: today.toISOString().slice(0, 10) };
}

async function activeLearners(db: Db, since: Date): Promise<number> {
  const { rows } = await db.raw(`SELECT count(DISTINCT user_id)::int AS n FROM lesson_progress WHERE updated_at >= ?`, [
    since,
  ]);
  return Number(rows[0].n);
}

/** The finance view of GET /api/admin/dashboard. */
export async function directFinanceDashboard(db: Db, now: Date, days: number, asked?: string) {
  const { since, sinceDay } = period(now, days);
  const { rows: money } = await db.raw(
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
  const byDay = (money as Row[]).map((r) => numeric(r, ['day', 'currency']));
  const sales = new Map<string, number>();
  for (const d of byDay) sales.set(String(d.currency), (sales.get(String(d.currency)) ?? 0) + Number(d.purchases));
  const currency = asked ?? mostSold(sales);
  const none = { gross: 0, tax: 0, fees: 0, refunded: 0, disputed: 0, net: 0, refunds: 0, purchases: 0 };
  const revenueByDay = Array.from({ length: days }, (_, i) => {
    const day = new Date(since.getTime() + i * DAY_MS).toISOString().slice(0, 10);
    const found = byDay.find((d) => d.day === day && d.currency === currency);
    if (!found) return { ...none, day };
    const { currency: _currency, ...rest } = found;
    return rest as typeof none & { day: string };
  });
  const { rows: top } = await db.raw(
    `SELECT pr.id AS "productId", pr.name, coalesce(p.purchases, 0)::int AS purchases, coalesce(l.net, 0)::bigint AS revenue
       FROM products pr
       LEFT JOIN (SELECT product_id, count(*) AS purchases FROM purchases
                   WHERE created_at >= ? AND ${PAID} AND currency = ? GROUP BY 1) p ON p.product_id = pr.id
       LEFT JOIN (SELECT product_id, sum(amount) AS net FROM split_lines
                   WHERE created_at >= ? AND currency = ? GROUP BY 1) l ON l.product_id = pr.id
      WHERE p.purchases IS NOT NULL OR l.net IS NOT NULL
      ORDER BY revenue DESC, purchases DESC, pr.name, pr.id
      LIMIT 5`,
    [since, currency, since, currency],
  );
  const sum = (key: keyof typeof none) => revenueByDay.reduce((t, d) => t + d[key], 0);
  return {
    view: 'finance',
    days,
    since: sinceDay,
    currency,
    currencies: [...sales.keys()].sort(),
    revenueByDay,
    totals: {
      ...Object.fromEntries(Object.keys(none).map((k) => [k, sum(k as keyof typeof none)])),
      activeLearners: await activeLearners(db, since),
    },
    topProducts: (top as Row[]).map((r) => numeric(r, ['productId', 'name'])),
  };
}

/** Support's view of GET /api/admin/dashboard, but for what is counted now apart from the ledger (disputes, emails). */
export async function directSupportDashboard(db: Db, now: Date, days: number) {
  const { since, sinceDay, todayDay } = period(now, days);
  const { rows: byDay } = await db.raw(
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
  const { rows: top } = await db.raw(
    `SELECT pr.id AS "productId", pr.name, p.purchases::int AS purchases
       FROM products pr
       JOIN (SELECT product_id, count(*) AS purchases FROM purchases WHERE created_at >= ? AND ${PAID}
              GROUP BY 1) p ON p.product_id = pr.id
      ORDER BY purchases DESC, pr.name, pr.id
      LIMIT 5`,
    [since],
  );
  const activityByDay = (byDay as Row[]).map((r) => numeric(r, ['day']));
  return {
    view: 'support',
    days,
    since: sinceDay,
    activityByDay,
    totals: {
      purchases: activityByDay.reduce((t, d) => t + Number(d.purchases), 0),
      refunds: activityByDay.reduce((t, d) => t + Number(d.refunds), 0),
      activeLearners: await activeLearners(db, since),
    },
    topProducts: (top as Row[]).map((r) => numeric(r, ['productId', 'name'])),
  };
}

/** GET /api/admin/finance/summary for whole UTC days from `from` to `to`. */
export async function directFinanceSummary(db: Db, from: string, to: string, asked?: string) {
  const start = new Date(`${from}T00:00:00Z`);
  const until = new Date(new Date(`${to}T00:00:00Z`).getTime() + DAY_MS);
  const { rows: byCurrency } = await db.raw(
    `SELECT currency, count(DISTINCT merchant_charge_id) FILTER (WHERE kind = 'sale')::int AS sales FROM split_lines
      WHERE created_at >= ? AND created_at < ? GROUP BY currency ORDER BY currency`,
    [start, until],
  );
  const currency = asked ?? mostSold(new Map((byCurrency as Row[]).map((r) => [String(r.currency), Number(r.sales)])));
  const amounts = ['sales', 'refunds', 'disputes', 'total'];
  const { rows: days } = await db.raw(
    `SELECT to_char(d.day, 'YYYY-MM-DD') AS day, ${AMOUNTS}
       FROM generate_series(?::date, ?::date, interval '1 day') AS d(day)
       LEFT JOIN split_lines l ON l.created_at >= d.day AND l.created_at < d.day + interval '1 day' AND l.currency = ?
      GROUP BY d.day ORDER BY d.day`,
    [from, to, currency],
  );
  const { rows: products } = await db.raw(
    `SELECT pr.id AS "productId", pr.name, ${AMOUNTS}
       FROM split_lines l JOIN products pr ON pr.id = l.product_id
      WHERE l.created_at >= ? AND l.created_at < ? AND l.currency = ?
      GROUP BY pr.id, pr.name ORDER BY total DESC, pr.name, pr.id`,
    [start, until, currency],
  );
  const { rows: recipients } = await db.raw(
    `SELECT l.recipient_type AS type, l.user_id AS "userId", u.email, u.name, ${AMOUNTS}
       FROM split_lines l LEFT JOIN users u ON u.id = l.user_id
      WHERE l.created_at >= ? AND l.created_at < ? AND l.currency = ?
      GROUP BY l.recipient_type, l.user_id, u.email, u.name ORDER BY total DESC, type, "userId"`,
    [start, until, currency],
  );
  const { rows: comps } = await db.raw(
    `SELECT count(*)::int AS n FROM purchases WHERE kind = 'comp' AND currency = ? AND created_at >= ? AND created_at < ?`,
    [currency, start, until],
  );
  const perDay = (days as Row[]).map((r) => numeric(r, ['day']));
  return {
    from,
    to,
    currency,
    currencies: (byCurrency as Row[]).map((r) => r.currency),
    totals: Object.fromEntries(amounts.map((k) => [k, perDay.reduce((t, d) => t + Number(d[k]), 0)])),
    comps: Number(comps[0].n),
    days: perDay,
    products: (products as Row[]).map((r) => numeric(r, ['productId', 'name'])),
    recipients: (recipients as Row[]).map((r) => numeric(r, ['type', 'userId', 'email', 'name'])),
  };
}

/** Each rollup table summed over its shards, and the same figures grouped from the tables they roll up. */
export const ROLLUP_CHECKS: Record<string, { rollup: string; direct: string }> = {
  charges: {
    rollup: `SELECT day, currency, sum(charges)::int AS charges, sum(gross)::bigint AS gross, sum(tax)::bigint AS tax,
               sum(fees)::bigint AS fees FROM finance_daily_charges GROUP BY 1, 2 HAVING sum(charges) <> 0 ORDER BY 1, 2`,
    direct: `SELECT (created_at AT TIME ZONE 'UTC')::date AS day, currency, count(*)::int AS charges,
               sum(amount)::bigint AS gross, sum(tax_amount)::bigint AS tax, sum(fee)::bigint AS fees
               FROM merchant_charges GROUP BY 1, 2 ORDER BY 1, 2`,
  },
  purchases: {
    rollup: `SELECT day, currency, product_id, sum(paid)::int AS paid, sum(comps)::int AS comps
               FROM finance_daily_purchases GROUP BY 1, 2, 3 HAVING sum(paid) <> 0 OR sum(comps) <> 0 ORDER BY 1, 2, 3`,
    direct: `SELECT (created_at AT TIME ZONE 'UTC')::date AS day, currency, product_id,
               count(*) FILTER (WHERE ${PAID})::int AS paid, count(*) FILTER (WHERE kind = 'comp')::int AS comps
               FROM purchases GROUP BY 1, 2, 3 HAVING count(*) FILTER (WHERE ${PAID} OR kind = 'comp') > 0
               ORDER BY 1, 2, 3`,
  },
  ledger: {
    rollup: `SELECT day, currency, sum(lines)::int AS lines, sum(sales)::bigint AS sales, sum(refunds)::bigint AS refunds,
               sum(disputes)::bigint AS disputes, sum(total)::bigint AS total, sum(sold_charges)::int AS sold,
               sum(refunds_made)::int AS refunds_made
               FROM finance_daily_ledger GROUP BY 1, 2 HAVING sum(lines) <> 0 ORDER BY 1, 2`,
    direct: `SELECT (created_at AT TIME ZONE 'UTC')::date AS day, currency, count(*)::int AS lines,
               COALESCE(sum(amount) FILTER (WHERE kind = 'sale'), 0)::bigint AS sales,
               COALESCE(sum(amount) FILTER (WHERE kind = 'refund'), 0)::bigint AS refunds,
               COALESCE(sum(amount) FILTER (WHERE kind IN ('dispute', 'dispute-won')), 0)::bigint AS disputes,
               sum(amount)::bigint AS total, count(DISTINCT merchant_charge_id) FILTER (WHERE kind = 'sale')::int AS sold,
               ${REFUNDS}::int AS refunds_made
               FROM split_lines GROUP BY 1, 2 ORDER BY 1, 2`,
  },
  products: {
    rollup: `SELECT day, currency, product_id, sum(lines)::int AS lines, sum(total)::bigint AS total, sum(sales)::bigint AS sales
               FROM finance_daily_ledger_products GROUP BY 1, 2, 3 HAVING sum(lines) <> 0 ORDER BY 1, 2, 3`,
    direct: `SELECT (created_at AT TIME ZONE 'UTC')::date AS day, currency, product_id, count(*)::int AS lines,
               sum(amount)::bigint AS total, COALESCE(sum(amount) FILTER (WHERE kind = 'sale'), 0)::bigint AS sales
               FROM split_lines GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
  },
  recipients: {
    rollup: `SELECT day, currency, recipient_type, user_id, sum(lines)::int AS lines, sum(total)::bigint AS total,
               sum(earned)::bigint AS earned
               FROM finance_daily_ledger_recipients GROUP BY 1, 2, 3, 4 HAVING sum(lines) <> 0 ORDER BY 1, 2, 3, 4`,
    direct: `SELECT (created_at AT TIME ZONE 'UTC')::date AS day, currency, recipient_type, user_id, count(*)::int AS lines,
               sum(amount)::bigint AS total, COALESCE(sum(amount) FILTER (WHERE amount > 0), 0)::bigint AS earned
               FROM split_lines GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
  },
  purchaseTotals: {
    rollup: `SELECT day, currency, sum(paid)::int AS paid, sum(comps)::int AS comps FROM finance_daily_purchase_totals
               GROUP BY 1, 2 HAVING sum(paid) <> 0 OR sum(comps) <> 0 ORDER BY 1, 2`,
    direct: `SELECT (created_at AT TIME ZONE 'UTC')::date AS day, currency, count(*) FILTER (WHERE ${PAID})::int AS paid,
               count(*) FILTER (WHERE kind = 'comp')::int AS comps FROM purchases
               GROUP BY 1, 2 HAVING count(*) FILTER (WHERE ${PAID} OR kind = 'comp') > 0 ORDER BY 1, 2`,
  },
  monthlyPurchases: {
    rollup: `SELECT month, currency, product_id, sum(paid)::int AS paid, sum(comps)::int AS comps
               FROM finance_monthly_purchases GROUP BY 1, 2, 3 HAVING sum(paid) <> 0 OR sum(comps) <> 0 ORDER BY 1, 2, 3`,
    direct: `SELECT date_trunc('month', created_at AT TIME ZONE 'UTC')::date AS month, currency, product_id,
               count(*) FILTER (WHERE ${PAID})::int AS paid, count(*) FILTER (WHERE kind = 'comp')::int AS comps
               FROM purchases GROUP BY 1, 2, 3 HAVING count(*) FILTER (WHERE ${PAID} OR kind = 'comp') > 0
               ORDER BY 1, 2, 3`,
  },
  monthlyProducts: {
    rollup: `SELECT month, currency, product_id, sum(lines)::int AS lines, sum(total)::bigint AS total,
               sum(refunds)::bigint AS refunds FROM finance_monthly_ledger_products
               GROUP BY 1, 2, 3 HAVING sum(lines) <> 0 ORDER BY 1, 2, 3`,
    direct: `SELECT date_trunc('month', created_at AT TIME ZONE 'UTC')::date AS month, currency, product_id,
               count(*)::int AS lines, sum(amount)::bigint AS total,
               COALESCE(sum(amount) FILTER (WHERE kind = 'refund'), 0)::bigint AS refunds
               FROM split_lines GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
  },
  monthlyRecipients: {
    rollup: `SELECT month, currency, recipient_type, user_id, sum(lines)::int AS lines, sum(sales)::bigint AS sales,
               sum(refunds)::bigint AS refunds, sum(disputes)::bigint AS disputes, sum(total)::bigint AS total,
               sum(earned)::bigint AS earned
               FROM finance_monthly_ledger_recipients GROUP BY 1, 2, 3, 4 HAVING sum(lines) <> 0 ORDER BY 1, 2, 3, 4`,
    direct: `SELECT date_trunc('month', created_at AT TIME ZONE 'UTC')::date AS month, currency, recipient_type, user_id,
               count(*)::int AS lines, COALESCE(sum(amount) FILTER (WHERE kind = 'sale'), 0)::bigint AS sales,
               COALESCE(sum(amount) FILTER (WHERE kind = 'refund'), 0)::bigint AS refunds,
               COALESCE(sum(amount) FILTER (WHERE kind IN ('dispute', 'dispute-won')), 0)::bigint AS disputes,
               sum(amount)::bigint AS total, COALESCE(sum(amount) FILTER (WHERE amount > 0), 0)::bigint AS earned
               FROM split_lines GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
  },
  hourlyEarnings: {
    rollup: `SELECT hour, currency, user_id, sum(earned)::bigint AS earned FROM finance_hourly_recipient_earnings
               GROUP BY 1, 2, 3 HAVING sum(earned) <> 0 ORDER BY 1, 2, 3`,
    direct: `SELECT date_trunc('hour', created_at, 'UTC') AS hour, currency, user_id,
               sum(amount)::bigint AS earned FROM split_lines WHERE amount > 0 AND user_id IS NOT NULL
               GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
  },
  learners: {
    rollup: `SELECT user_id, last_active_at FROM learner_last_active ORDER BY 1`,
    direct: `SELECT user_id, max(updated_at) AS last_active_at FROM lesson_progress GROUP BY 1 ORDER BY 1`,
  },
  learnerDays: {
    rollup: `SELECT day, sum(learners)::int AS learners FROM learner_last_active_days
               GROUP BY 1 HAVING sum(learners) <> 0 ORDER BY 1`,
    direct: `SELECT (last_active AT TIME ZONE 'UTC')::date AS day, count(*)::int AS learners
               FROM (SELECT max(updated_at) AS last_active FROM lesson_progress GROUP BY user_id) AS l
               GROUP BY 1 ORDER BY 1`,
  },
};
