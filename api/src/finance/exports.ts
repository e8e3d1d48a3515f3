import { PassThrough, pipeline, type Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { z } from 'zod';
import type { Db } from '../db/connection';
import type { Logger } from '../logger';

/** An export's period: whole UTC days, `from` and `to` both included. */
export const PeriodQuery = z
  .object({
    from: z.iso.date('must be a date (YYYY-MM-DD)'),
    to: z.iso.date('must be a date (YYYY-MM-DD)'),
    period: z.enum(['day', 'week', 'month']).default('month'),
  })
  .refine((q) => q.from <= q.to, { message: 'must not be after "to"', path: ['from'] });
export type PeriodQuery = z.infer<typeof PeriodQuery>;

const DAY_MS = 86_400_000;
const bounds = (q: PeriodQuery) => [new Date(`${q.from}T00:00:00Z`), new Date(new Date(`${q.to}T00:00:00Z`).getTime() + DAY_MS)] as const;

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return) as a formula; a leading quote
 * makes it text. Only text cells are touched: amounts stay numbers (a refund is a negative number, not a formula).
 */
export function neutraliseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

interface Export {
  filename: string;
  columns: { key: string; header: string }[];
  count: string;
  rows: string;
}

const CHARGES: Omit<Export, 'filename'> = {
  columns: [
    { key: 'date', header: 'Date' },
    { key: 'charge', header: 'Charge' },
    { key: 'purchase', header: 'Purchase' },
    { key: 'product', header: 'Product' },
    { key: 'buyerEmail', header: 'Buyer email' },
    { key: 'buyerCountry', header: 'Buyer country' },
    { key: 'gross', header: 'Gross (cents)' },
    { key: 'fee', header: 'Fee (cents)' },
    { key: 'net', header: 'Net (cents)' },
    { key: 'refunded', header: 'Refunded (cents)' },
    { key: 'currency', header: 'Currency' },
    { key: 'status', header: 'Status' },
    { key: 'coupon', header: 'Coupon' },
  ],
  count: `SELECT count(*)::int AS n FROM merchant_charges ch WHERE ch.created_at >= ? AND ch.created_at < ?`,
  rows: `SELECT ch.created_at AS date, ch.identifier AS charge, p.id AS purchase, pr.name AS product, u.email AS "buyerEmail",
                p.country AS "buyerCountry", ch.amount AS gross, ch.fee, ch.net, ch.refund_amount AS refunded, ch.currency,
                p.status, c.code AS coupon
           FROM merchant_charges ch
           LEFT JOIN purchases p ON p.merchant_charge_id = ch.id
           LEFT JOIN products pr ON pr.id = p.product_id
           LEFT JOIN users u ON u.id = p.user_id
           LEFT JOIN coupons c ON c.id = p.coupon_id
          WHERE ch.created_at >= ? AND ch.created_at < ?
          ORDER BY ch.created_at, ch.id`,
};

const SPLIT_LINES: Omit<Export, 'filename'> = {
  columns: [
    { key: 'date', header: 'Date' },
    { key: 'line', header: 'Line' },
    { key: 'charge', header: 'Charge' },
    { key: 'product', header: 'Product' },
    { key: 'recipientType', header: 'Recipient type' },
    { key: 'recipientEmail', header: 'Recipient email' },
    { key: 'kind', header: 'Kind' },
    { key: 'amount', header: 'Amount (cents)' },
    { key: 'currency', header: 'Currency' },
    { key: 'reference', header: 'Reference' },
  ],
  count: `SELECT count(*)::int AS n FROM split_lines l WHERE l.created_at >= ? AND l.created_at < ?`,
  rows: `SELECT l.created_at AS date, l.id AS line, ch.identifier AS charge, pr.name AS product, l.recipient_type AS "recipientType",
                u.email AS "recipientEmail", l.kind, l.amount, l.currency, l.reference
           FROM split_lines l
           JOIN merchant_charges ch ON ch.id = l.merchant_charge_id
           JOIN products pr ON pr.id = l.product_id
           LEFT JOIN users u ON u.id = l.user_id
          WHERE l.created_at >= ? AND l.created_at < ?
          ORDER BY l.created_at, l.id`,
};

const RECIPIENTS = (period: PeriodQuery['period']): Omit<Export, 'filename'> => ({
  columns: [
    { key: 'period', header: 'Period' },
    { key: 'recipientType', header: 'Recipient type' },
    { key: 'recipientEmail', header: 'Recipient email' },
    { key: 'currency', header: 'Currency' },
    { key: 'sales', header: 'Sales (cents)' },
    { key: 'refunds', header: 'Refunds (cents)' },
    { key: 'disputes', header: 'Disputes (cents)' },
    { key: 'total', header: 'Total (cents)' },
    { key: 'lines', header: 'Lines' },
  ],
  count: `SELECT count(*)::int AS n FROM (SELECT 1 FROM split_lines l WHERE l.created_at >= ? AND l.created_at < ?
           GROUP BY date_trunc('${period}', l.created_at AT TIME ZONE 'UTC'), l.recipient_type, l.user_id, l.currency) g`,
  rows: `SELECT to_char(date_trunc('${period}', l.created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS period, l.recipient_type AS "recipientType",
                u.email AS "recipientEmail", l.currency,
                COALESCE(sum(l.amount) FILTER (WHERE l.kind = 'sale'), 0)::bigint AS sales,
                COALESCE(sum(l.amount) FILTER (WHERE l.kind = 'refund'), 0)::bigint AS refunds,
                COALESCE(sum(l.amount) FILTER (WHERE l.kind IN ('dispute', 'dispute-won')), 0)::bigint AS disputes,
                sum(l.amount)::bigint AS total, count(*)::int AS lines
           FROM split_lines l
           LEFT JOIN users u ON u.id = l.user_id
          WHERE l.created_at >= ? AND l.created_at < ?
          GROUP BY 1, l.recipient_type, l.user_id, u.email, l.currency
          ORDER BY 1, l.recipient_type, u.email NULLS FIRST, l.currency`,
});

export type ExportKind = 'charges' | 'split-lines' | 'recipients';

/**
 * Column aliases are quoted camelCase: the rows reach the CSV under those names whether or not the connection
 * maps identifiers.
 *
 * Finance exports as CSV (RFC 4180: CRLF, quoted as needed; UTF-8 with a byte-order mark so spreadsheets read
 * accents), streamed from a database cursor: memory stays flat whatever the number of rows.
 */
export function financeExports({ db, logger }: { db: Db; logger: Logger }) {
  const definition = (kind: ExportKind, q: PeriodQuery): Export => {
    const base = kind === 'charges' ? CHARGES : kind === 'split-lines' ? SPLIT_LINES : RECIPIENTS(q.period);
    return { ...base, filename: `${kind}-${q.from}-to-${q.to}${kind === 'recipients' ? `-by-${q.period}` : ''}.csv` };
  };

  return {
    /**
     * The CSV as a stream, its file name and its row count. Count and rows are read in one repeatable-read
     * transaction, so a sale arriving meanwhile changes neither; destroying the stream (a client gone) ends the
     * transaction and releases the cursor.
     */
    async open(kind: ExportKind, q: PeriodQuery): Promise<{ filename: string; total: number; body: Readable }> {
      const spec = definition(kind, q);
      const trx = await db.transaction({ isolationLevel: 'repeatable read', readOnly: true });
      try {
        const { rows: counted } = await trx.raw(spec.count, bounds(q));
        // Rows arrive from the cursor in batches of 2,000: fewer round trips, and still a bounded buffer.
        const rows = trx.raw(spec.rows, bounds(q)).stream({ batchSize: 2000, highWaterMark: 2000 } as Record<string, number>);
        const csv = stringify({
          header: true,
          bom: true,
          record_delimiter: 'windows',
          columns: spec.columns,
          cast: {
            date: (value) => value.toISOString(),
            string: (value) => neutraliseFormula(value),
            bigint: (value) => value.toString(),
          },
        });
        const body = new PassThrough();
        pipeline(rows, csv, body, (error) => {
          if (error) logger.warn({ err: error, kind }, 'an export stopped before its end');
          (error ? trx.rollback() : trx.commit()).catch(() => undefined);
        });
        return { filename: spec.filename, total: (counted as { n: number }[])[0]!.n, body };
      } catch (error) {
        await trx.rollback().catch(() => undefined);
        throw error;
      }
    },
  };
}

export type FinanceExports = ReturnType<typeof financeExports>;
