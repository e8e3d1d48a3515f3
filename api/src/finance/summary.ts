import type { Db } from '../db/connection';
import { mostSold } from '../shared/finance';
import type { FinanceSummaryAnswer, LedgerAmounts, PeriodQuery, RecipientType } from './schemas';

const DAY_MS = 86_400_000;

/** Sales, refunds and disputes columns summed from ledger lines (cents; refunds and disputes are negative). */
const AMOUNTS = `
  COALESCE(sum(l.amount) FILTER (WHERE l.kind = 'sale'), 0)::bigint AS sales,
  COALESCE(sum(l.amount) FILTER (WHERE l.kind = 'refund'), 0)::bigint AS refunds,
  COALESCE(sum(l.amount) FILTER (WHERE l.kind IN ('dispute', 'dispute-won')), 0)::bigint AS disputes,
  COALESCE(sum(l.amount), 0)::bigint AS total`;

type Amounts = LedgerAmounts;

const numbers = <T extends Amounts>(row: T): T => ({
  ...row,
  sales: Number(row.sales),
  refunds: Number(row.refunds),
  disputes: Number(row.disputes),
  total: Number(row.total),
});

/** The console's finance charts, all read from the split ledger for one period (whole UTC days). */
export function financeSummary({ db }: { db: Db }) {
  return {
    /**
     * One currency at a time (amounts in different currencies do not add up), by default the one with the most sales
     * in the period, as on the dashboard; the ledger's currencies are listed.
     */
    async summary(
      q: Pick<PeriodQuery, 'from' | 'to'> & { currency?: string | undefined },
    ): Promise<FinanceSummaryAnswer> {
      const from = new Date(`${q.from}T00:00:00Z`);
      const until = new Date(new Date(`${q.to}T00:00:00Z`).getTime() + DAY_MS);
      // A sale is a charge whose sale lines are in the period, counted once however many recipients share it.
      const byCurrency = (await db('splitLines')
        .where('createdAt', '>=', from)
        .where('createdAt', '<', until)
        .select('currency')
        .select(db.raw(`count(DISTINCT merchant_charge_id) FILTER (WHERE kind = 'sale')::int AS sales`))
        .groupBy('currency')
        .orderBy('currency')) as { currency: string; sales: number }[];
      const currencies = byCurrency.map((r) => r.currency);
      const currency = q.currency ?? mostSold(new Map(byCurrency.map((r) => [r.currency, Number(r.sales)])));
      const [days, products, recipients] = await Promise.all([
        db.raw(
          `SELECT to_char(d.day, 'YYYY-MM-DD') AS day, ${AMOUNTS}
             FROM generate_series(?::date, ?::date, interval '1 day') AS d(day)
             LEFT JOIN split_lines l ON l.created_at >= d.day AND l.created_at < d.day + interval '1 day' AND l.currency = ?
            GROUP BY d.day ORDER BY d.day`,
          [q.from, q.to, currency],
        ),
        db.raw(
          `SELECT pr.id AS "productId", pr.name, ${AMOUNTS}
             FROM split_lines l JOIN products pr ON pr.id = l.product_id
            WHERE l.created_at >= ? AND l.created_at < ? AND l.currency = ?
            GROUP BY pr.id, pr.name ORDER BY total DESC, pr.name`,
          [from, until, currency],
        ),
        db.raw(
          `SELECT l.recipient_type AS type, l.user_id AS "userId", u.email, u.name, ${AMOUNTS}
             FROM split_lines l LEFT JOIN users u ON u.id = l.user_id
            WHERE l.created_at >= ? AND l.created_at < ? AND l.currency = ?
            GROUP BY l.recipient_type, l.user_id, u.email, u.name ORDER BY total DESC`,
          [from, until, currency],
        ),
      ]);
      // Courses given (comps) in the period: counted here, never revenue (they have no charge and no ledger line).
      const [comped] = (await db('purchases')
        .where({ kind: 'comp', currency })
        .where('createdAt', '>=', from)
        .where('createdAt', '<', until)
        .count({ n: '*' })) as { n: string | number }[];
      const perDay = (days.rows as (Amounts & { day: string })[]).map(numbers);
      const totals = perDay.reduce(
        (t, d) => ({
          sales: t.sales + d.sales,
          refunds: t.refunds + d.refunds,
          disputes: t.disputes + d.disputes,
          total: t.total + d.total,
        }),
        {
          sales: 0,
          refunds: 0,
          disputes: 0,
          total: 0,
        },
      );
      return {
        from: q.from,
        to: q.to,
        currency,
        currencies,
        totals,
        comps: Number(comped?.n ?? 0),
        days: perDay,
        products: (products.rows as (Amounts & { productId: string; name: string })[]).map(numbers),
        recipients: (
          recipients.rows as (Amounts & {
            type: RecipientType;
            userId: string | null;
            email: string | null;
            name: string | null;
          })[]
        ).map(numbers),
      };
    },
  };
}

export type FinanceSummary = ReturnType<typeof financeSummary>;
