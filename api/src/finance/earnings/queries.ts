import type { Db } from '../../db/connection';
import type { EarningsLine, EarningsPayout, ProductMonth } from './schemas';

/** A month `2026-11` as its UTC bounds [start, end). */
export function monthBounds(month: string): [Date, Date] {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  return [new Date(Date.UTC(year, mon - 1, 1)), new Date(Date.UTC(year, mon, 1))];
}

/** Whether someone shares in any product's splits, or ever had a line or a payout (a split since removed). */
export async function isPayee(db: Db, userId: string): Promise<boolean> {
  const { rows } = await db.raw<{ rows: { payee: boolean }[] }>(
    `SELECT EXISTS (SELECT 1 FROM product_revenue_splits WHERE user_id = :userId)
         OR EXISTS (SELECT 1 FROM split_lines WHERE user_id = :userId)
         OR EXISTS (SELECT 1 FROM payouts WHERE recipient_id = :userId) AS payee`,
    { userId },
  );
  return rows[0]!.payee;
}

interface LinesRange {
  from?: Date;
  to?: Date;
  limit?: number;
  offset?: number;
}

/**
 * Someone's ledger lines, newest first (read by the (user_id, created_at) index), each with its charge's figures
 * and their share in the product's splits now.
 */
export async function linesOf(db: Db, userId: string, range: LinesRange = {}): Promise<EarningsLine[]> {
  const query = db('splitLines as l')
    .join('merchantCharges as ch', 'ch.id', 'l.merchantChargeId')
    .join('products as p', 'p.id', 'l.productId')
    .where('l.userId', userId)
    .orderBy([
      { column: 'l.createdAt', order: 'desc' },
      { column: 'l.id', order: 'desc' },
    ])
    .select(
      db.raw('l.id::text AS id'),
      'l.createdAt',
      'l.kind',
      'l.recipientType',
      'l.productId',
      'p.name as productName',
      'l.currency',
      'ch.amount as gross',
      'ch.taxAmount as tax',
      'ch.fee',
      db.raw(
        `(SELECT sum(s.percent)::text FROM product_revenue_splits s
           WHERE s.product_id = l.product_id AND s.user_id = l.user_id AND s.type = l.recipient_type) AS percent`,
      ),
      'l.amount',
    );
  if (range.from) query.where('l.createdAt', '>=', range.from);
  if (range.to) query.where('l.createdAt', '<', range.to);
  if (range.limit !== undefined) query.limit(range.limit).offset(range.offset ?? 0);
  return (await query) as EarningsLine[];
}

export async function countLines(db: Db, userId: string, range: LinesRange = {}): Promise<number> {
  const query = db('splitLines').where({ userId }).count({ n: '*' });
  if (range.from) query.where('createdAt', '>=', range.from);
  if (range.to) query.where('createdAt', '<', range.to);
  const [row] = (await query) as { n: string }[];
  return Number(row!.n);
}

/** Their lines summed per UTC month, product and currency, newest month first. */
export async function productMonths(db: Db, userId: string): Promise<ProductMonth[]> {
  const { rows } = await db.raw<{ rows: (Omit<ProductMonth, 'net'> & Record<string, unknown>)[] }>(
    `SELECT to_char(date_trunc('month', l.created_at AT TIME ZONE 'UTC'), 'YYYY-MM') AS month,
            l.product_id AS "productId", p.name AS "productName", l.currency,
            count(*) FILTER (WHERE l.kind = 'sale')::int AS sales,
            coalesce(sum(l.amount) FILTER (WHERE l.amount > 0), 0)::bigint AS earned,
            coalesce(-sum(l.amount) FILTER (WHERE l.amount < 0), 0)::bigint AS "clawedBack"
       FROM split_lines l
       JOIN products p ON p.id = l.product_id
      WHERE l.user_id = ?
      GROUP BY 1, l.product_id, p.name, l.currency
      ORDER BY 1 DESC, p.name, l.currency`,
    [userId],
  );
  return rows.map((row) => {
    const earned = Number(row.earned);
    const clawedBack = Number(row.clawedBack);
    return {
      month: row.month,
      productId: row.productId,
      productName: row.productName,
      currency: row.currency,
      sales: row.sales,
      earned,
      clawedBack,
      net: earned - clawedBack,
    };
  });
}

const PAYOUT_COLUMNS = ['id', 'currency', 'amount', 'method', 'status', 'reference', 'createdAt', 'paidAt'];

/** Their payouts, newest first. */
export async function payoutsOf(db: Db, userId: string): Promise<EarningsPayout[]> {
  return (await db('payouts')
    .where({ recipientId: userId })
    .orderBy([
      { column: 'createdAt', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .select(PAYOUT_COLUMNS)) as EarningsPayout[];
}

/** Their payouts paid inside [from, to), oldest first. */
export async function payoutsPaidIn(db: Db, userId: string, from: Date, to: Date): Promise<EarningsPayout[]> {
  return (await db('payouts')
    .where({ recipientId: userId, status: 'paid' })
    .where('paidAt', '>=', from)
    .where('paidAt', '<', to)
    .orderBy('paidAt')
    .select(PAYOUT_COLUMNS)) as EarningsPayout[];
}

/**
 * What they had per currency at an instant: their lines before it less their payouts paid before it (the balance of
 * docs/domain.md §19 as it stood then).
 */
export async function balancesAt(db: Db, userId: string, at: Date): Promise<Map<string, number>> {
  const { rows } = await db.raw<{ rows: { currency: string; amount: string }[] }>(
    `SELECT currency, sum(amount)::bigint AS amount FROM (
       SELECT currency, amount FROM split_lines WHERE user_id = :userId AND created_at < :at
       UNION ALL
       SELECT currency, -amount FROM payouts WHERE recipient_id = :userId AND status = 'paid' AND paid_at < :at
     ) money GROUP BY currency`,
    { userId, at },
  );
  return new Map(rows.map((row) => [row.currency, Number(row.amount)]));
}
