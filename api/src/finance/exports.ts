import type { Readable } from 'node:stream';
import type { Db } from '../db/connection';
import type { Logger } from '../logger';
import { openCopyCsv } from '../db/copy-csv';
import type { Statement } from '../db/csv-cursor';
import { csvHead } from '../http/csv';
import type { ExportKind, PeriodQuery } from './schemas';
import { DAY_MS } from '../shared/durations';

/** An export's period as instants: whole UTC days, `from` and `to` both included. */
const bounds = (q: PeriodQuery) => [
  new Date(`${q.from}T00:00:00Z`),
  new Date(new Date(`${q.to}T00:00:00Z`).getTime() + DAY_MS),
];

/** An instant as JavaScript's toISOString writes it (UTC, milliseconds), formatted by PostgreSQL. */
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * An export is its selection (the rows, their raw columns, in order) and the CSV's columns formatted from it. The
 * selection is read in the order of its index (charges by (created_at, id)), so the first row goes out at once; the
 * dates are formatted as rows leave it. (A subquery with its own ORDER BY stays a subquery, so the outer ORDER BY on
 * the same keys costs no second sort: it is there so the order is guaranteed.)
 */
interface Export {
  filename: string;
  /** In the order of the query's columns; a number column is written as PostgreSQL prints it, the rest as text. */
  columns: { header: string; number?: true }[];
  /** One number (a scalar subquery); $1 and $2 are the period's bounds, here and in the selection. */
  count: string;
  /** The rows with their raw columns, in the export's order. */
  selection: string;
  /** The CSV's rows from the selection (as `s`), or null when the selection is written as it is. */
  rows: ((selection: string) => string) | null;
}

/**
 * How a charge's price came about, from its checkout: the list price for the seats bought, the upgrade credit, and
 * the discount (list − credit − the price paid before any tax added on top), whatever gave it: a code, the site-wide
 * sale, the regional price.
 */
const DISCOUNT_NAME = `COALESCE(c.code, CASE WHEN c."default" THEN 'Sale' WHEN c.bulk_purchase_id IS NOT NULL THEN 'Team seats' END,
                                CASE WHEN co.restricted THEN 'Regional price' END)`;

/**
 * One row per charge; its buyer is the payer (the charge's), whoever holds the purchase since (docs/domain.md §8).
 * Gross is what was charged, tax included; Net is the revenue the split ledger shares out (gross less tax and fee, the
 * sum of the charge's sale lines); Refunded is what went back, its tax in Refunded tax (refund lines: the rest).
 */
const CHARGES: Omit<Export, 'filename'> = {
  columns: [
    { header: 'Date' },
    { header: 'Charge' },
    { header: 'Purchase' },
    { header: 'Product' },
    { header: 'Buyer email' },
    { header: 'Buyer country' },
    { header: 'Gross (cents)', number: true },
    { header: 'Tax (cents)', number: true },
    { header: 'Fee (cents)', number: true },
    { header: 'Net (cents)', number: true },
    { header: 'Refunded (cents)', number: true },
    { header: 'Refunded tax (cents)', number: true },
    { header: 'Currency' },
    { header: 'Status' },
    { header: 'Coupon' },
    { header: 'Seats', number: true },
    { header: 'List price (cents)', number: true },
    { header: 'Upgrade credit (cents)', number: true },
    { header: 'Discount (cents)', number: true },
  ],
  count: `SELECT count(*)::int FROM merchant_charges ch WHERE ch.created_at >= $1 AND ch.created_at < $2`,
  selection: `SELECT ch.created_at, ch.id, ch.identifier, p.id AS purchase, pr.name AS product, u.email, p.country, ch.amount,
                     ch.tax_amount, ch.tax_inclusive, ch.fee, ch.refund_amount, ch.refunded_tax, ch.currency, p.status,
                     ${DISCOUNT_NAME} AS discount_name,
                     co.quantity, pri.unit_amount * co.quantity AS list, co.credit_amount
                FROM merchant_charges ch
                LEFT JOIN purchases p ON p.merchant_charge_id = ch.id
                LEFT JOIN products pr ON pr.id = p.product_id
                LEFT JOIN users u ON u.id = ch.user_id
                LEFT JOIN checkouts co ON co.purchase_id = p.id
                LEFT JOIN prices pri ON pri.id = co.price_id
                LEFT JOIN coupons c ON c.id = COALESCE(p.coupon_id, co.coupon_id)
               WHERE ch.created_at >= $1 AND ch.created_at < $2
               ORDER BY ch.created_at, ch.id`,
  rows: (selection) =>
    `SELECT ${iso('s.created_at')}, s.identifier, s.purchase, s.product, s.email, s.country, s.amount, s.tax_amount, s.fee,
            s.amount - s.tax_amount - s.fee, s.refund_amount, s.refunded_tax, s.currency, s.status, s.discount_name,
            s.quantity, s.list, s.credit_amount,
            s.list - s.credit_amount - (s.amount - CASE WHEN s.tax_inclusive THEN 0 ELSE s.tax_amount END)
       FROM (${selection}) s
      ORDER BY s.created_at, s.id`,
};

const SPLIT_LINES: Omit<Export, 'filename'> = {
  columns: [
    { header: 'Date' },
    { header: 'Line', number: true },
    { header: 'Charge' },
    { header: 'Product' },
    { header: 'Recipient type' },
    { header: 'Recipient email' },
    { header: 'Kind' },
    { header: 'Amount (cents)', number: true },
    { header: 'Currency' },
    { header: 'Reference' },
  ],
  count: `SELECT count(*)::int FROM split_lines l WHERE l.created_at >= $1 AND l.created_at < $2`,
  selection: `SELECT l.created_at, l.id, ch.identifier, pr.name, l.recipient_type, u.email, l.kind, l.amount, l.currency, l.reference
                FROM split_lines l
                JOIN merchant_charges ch ON ch.id = l.merchant_charge_id
                JOIN products pr ON pr.id = l.product_id
                LEFT JOIN users u ON u.id = l.user_id
               WHERE l.created_at >= $1 AND l.created_at < $2
               ORDER BY l.created_at, l.id`,
  rows: (selection) =>
    `SELECT ${iso('s.created_at')}, s.id, s.identifier, s.name, s.recipient_type, s.email, s.kind, s.amount, s.currency, s.reference
       FROM (${selection}) s
      ORDER BY s.created_at, s.id`,
};

const RECIPIENTS = (period: PeriodQuery['period']): Omit<Export, 'filename'> => ({
  columns: [
    { header: 'Period' },
    { header: 'Recipient type' },
    { header: 'Recipient email' },
    { header: 'Currency' },
    { header: 'Sales (cents)', number: true },
    { header: 'Refunds (cents)', number: true },
    { header: 'Disputes (cents)', number: true },
    { header: 'Total (cents)', number: true },
    { header: 'Lines', number: true },
  ],
  count: `SELECT count(*)::int FROM (SELECT 1 FROM split_lines l WHERE l.created_at >= $1 AND l.created_at < $2
           GROUP BY date_trunc('${period}', l.created_at AT TIME ZONE 'UTC'), l.recipient_type, l.user_id, l.currency) g`,
  rows: null,
  selection: `SELECT to_char(date_trunc('${period}', l.created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS period, l.recipient_type, u.email, l.currency,
                COALESCE(sum(l.amount) FILTER (WHERE l.kind = 'sale'), 0),
                COALESCE(sum(l.amount) FILTER (WHERE l.kind = 'refund'), 0),
                COALESCE(sum(l.amount) FILTER (WHERE l.kind IN ('dispute', 'dispute-won')), 0),
                sum(l.amount), count(*)
           FROM split_lines l
           LEFT JOIN users u ON u.id = l.user_id
          WHERE l.created_at >= $1 AND l.created_at < $2
          GROUP BY 1, l.recipient_type, l.user_id, u.email, l.currency
          ORDER BY 1, l.recipient_type, u.email NULLS FIRST, l.currency`,
});

/** A bound as a literal (COPY takes no parameters): toISOString writes only digits, dashes, colons, T, a dot and Z. */
const literal = (instant: Date) => `'${instant.toISOString()}'::timestamptz`;

/**
 * An export's selection: the rows with their raw columns, in the export's order, as a statement with the period's
 * bounds as $1 and $2 (the benchmark streams it through csv-stringify as the baseline of the product's export).
 */
export function exportSelection(kind: ExportKind, q: PeriodQuery): Statement {
  return { sql: definition(kind, q).selection, bindings: bounds(q) };
}

function definition(kind: ExportKind, q: PeriodQuery): Export {
  const base = kind === 'charges' ? CHARGES : kind === 'split-lines' ? SPLIT_LINES : RECIPIENTS(q.period);
  return { ...base, filename: `${kind}-${q.from}-to-${q.to}${kind === 'recipients' ? `-by-${q.period}` : ''}.csv` };
}

/**
 * Finance exports as CSV (RFC 4180: CRLF, quoted as needed; UTF-8 with a byte-order mark so spreadsheets read
 * accents), written by PostgreSQL's COPY and streamed as it comes: memory stays flat whatever the number of rows,
 * and the header goes out with the count, before the first row.
 */
export function financeExports({ db, logger }: { db: Db; logger: Logger }) {
  return {
    /**
     * The CSV as a stream, its file name and its row count. Count and rows are read in one repeatable-read
     * transaction, so a sale arriving meanwhile changes neither; destroying the stream (a client gone) ends the
     * transaction and gives the connection back.
     */
    async open(kind: ExportKind, q: PeriodQuery): Promise<{ filename: string; total: number; body: Readable }> {
      const spec = definition(kind, q);
      const [from, to] = bounds(q) as [Date, Date];
      const period = (sql: string) => sql.replaceAll('$1', literal(from)).replaceAll('$2', literal(to));
      const { total, body } = await openCopyCsv(db, {
        count: { sql: spec.count, bindings: [from, to] },
        rows: period(spec.rows ? spec.rows(spec.selection) : spec.selection),
        head: csvHead(spec.columns.map((c) => c.header)),
        numbers: spec.columns.map((c) => c.number === true),
        onStopped: (error) => logger.warn({ err: error, kind }, 'an export stopped before its end'),
      });
      return { filename: spec.filename, total, body };
    },
  };
}

export type FinanceExports = ReturnType<typeof financeExports>;
