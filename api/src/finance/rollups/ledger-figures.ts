import type { Db } from '../../db/connection';
import type { LedgerAmounts, RecipientType } from '../schemas';
import { monthsAndDays, rowsInPeriod } from './period';

/**
 * The split ledger's figures for whole UTC days, read from its daily rollups (finance_daily_ledger*, kept exact by
 * triggers on split_lines, migrations/20261130010000_create_finance_daily_rollups.ts) and, by product and by
 * recipient, from monthly ones for the whole months: a year is a few hundred rows a key whatever the ledger holds.
 * Each key's rows are summed over their shards; a key whose lines were all in other periods reads as absent, as it
 * would from the ledger.
 */

/** Sales, refunds and disputes summed (cents; refunds and disputes negative). */
const AMOUNTS = `coalesce(sum(sales), 0)::bigint AS sales, coalesce(sum(refunds), 0)::bigint AS refunds,
  coalesce(sum(disputes), 0)::bigint AS disputes, coalesce(sum(total), 0)::bigint AS total`;

/** The measures each rollup row of the ledger holds. */
const MEASURES = ['lines', 'sales', 'refunds', 'disputes', 'total'];

const numbers = <T extends LedgerAmounts>(row: T): T => ({
  ...row,
  sales: Number(row.sales),
  refunds: Number(row.refunds),
  disputes: Number(row.disputes),
  total: Number(row.total),
});

/** Whole days from `from` to `to`, both included (YYYY-MM-DD, UTC). */
export interface Days {
  from: string;
  to: string;
}

/** The currencies with ledger lines in these days and their sales (charges with sale lines, each counted once). */
export async function salesByCurrency(db: Db, { from, to }: Days): Promise<{ currency: string; sales: number }[]> {
  const { rows } = await db.raw(
    `SELECT currency, sum(sold_charges)::int AS sales FROM finance_daily_ledger
      WHERE day BETWEEN ?::date AND ?::date GROUP BY currency HAVING sum(lines) > 0 ORDER BY currency`,
    [from, to],
  );
  return (rows as { currency: string; sales: number }[]).map((r) => ({ ...r, sales: Number(r.sales) }));
}

/** Each day's amounts in one currency, every day listed (zero when nothing moved). */
export async function amountsByDay(db: Db, { from, to }: Days, currency: string) {
  const { rows } = await db.raw(
    `SELECT to_char(d.day, 'YYYY-MM-DD') AS day, ${AMOUNTS}
       FROM generate_series(?::date, ?::date, interval '1 day') AS d(day)
       LEFT JOIN finance_daily_ledger r ON r.day = d.day::date AND r.currency = ?
      GROUP BY d.day ORDER BY d.day`,
    [from, to, currency],
  );
  return (rows as (LedgerAmounts & { day: string })[]).map(numbers);
}

/** Each product's amounts in one currency, the largest total first. */
export async function amountsByProduct(db: Db, { from, to }: Days, currency: string) {
  const lines = rowsInPeriod(
    { daily: 'finance_daily_ledger_products', monthly: 'finance_monthly_ledger_products' },
    ['product_id'],
    MEASURES,
    'currency = ?',
    [currency],
    monthsAndDays(from, to),
  );
  const { rows } = await db.raw(
    `SELECT pr.id AS "productId", pr.name, ${AMOUNTS}
       FROM (${lines.sql}) AS r JOIN products pr ON pr.id = r.product_id
      GROUP BY pr.id, pr.name HAVING sum(r.lines) > 0 ORDER BY total DESC, pr.name, pr.id`,
    lines.bindings,
  );
  return (rows as (LedgerAmounts & { productId: string; name: string })[]).map(numbers);
}

/** Each recipient's amounts in one currency (the platform has no user), the largest total first. */
export async function amountsByRecipient(db: Db, { from, to }: Days, currency: string) {
  const lines = rowsInPeriod(
    { daily: 'finance_daily_ledger_recipients', monthly: 'finance_monthly_ledger_recipients' },
    ['recipient_type', 'user_id'],
    MEASURES,
    'currency = ?',
    [currency],
    monthsAndDays(from, to),
  );
  const { rows } = await db.raw(
    `SELECT r.type, r."userId", u.email, u.name, r.sales, r.refunds, r.disputes, r.total
       FROM (SELECT recipient_type AS type, user_id AS "userId", ${AMOUNTS} FROM (${lines.sql}) AS l
              GROUP BY recipient_type, user_id HAVING sum(lines) > 0) r
       -- Each recipient looked up by id (LIMIT keeps the planner from hashing the whole users table instead).
       LEFT JOIN LATERAL (SELECT email, name FROM users WHERE id = r."userId" LIMIT 1) u ON true
      ORDER BY r.total DESC, r.type, r."userId"`,
    lines.bindings,
  );
  return (
    rows as (LedgerAmounts & {
      type: RecipientType;
      userId: string | null;
      email: string | null;
      name: string | null;
    })[]
  ).map(numbers);
}

/** Courses given (comps) in these days in one currency's products. */
export async function compsGiven(db: Db, { from, to }: Days, currency: string): Promise<number> {
  const { rows } = await db.raw(
    `SELECT coalesce(sum(comps), 0)::int AS n FROM finance_daily_purchase_totals
      WHERE day BETWEEN ?::date AND ?::date AND currency = ?`,
    [from, to, currency],
  );
  return Number((rows as { n: number }[])[0]?.n ?? 0);
}
