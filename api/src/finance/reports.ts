import type { Readable } from 'node:stream';
import type { Clock } from '../clock';
import type { Db } from '../db/connection';
import { openCursorCsv } from '../db/csv-cursor';
import { csvHead, csvLine } from '../http/csv';
import type { Logger } from '../logger';
import { REFUND_REASONS, refundReasonLabel, type RefundReason } from '../shared/refund-reasons';
import type { DisputeReportAnswer, RefundReportAnswer, ReportPeriod, ReportQuery } from './schemas';
import { DAY_MS } from '../shared/durations';

/** Disputes whose evidence is due within this long are "due soon". */
const DUE_SOON_MS = 3 * DAY_MS;

/** A period as instants: whole UTC days, `from` and `to` both included. */
const bounds = (q: ReportPeriod): [Date, Date] => [
  new Date(`${q.from}T00:00:00Z`),
  new Date(new Date(`${q.to}T00:00:00Z`).getTime() + DAY_MS),
];

/**
 * The refunds that went through (succeeded) in a period, each with its buyer (the charge's payer, whoever holds the
 * purchase now) and the product its charge paid for: the purchase that holds the charge (one per charge, a unique key; a team's seats hang off the buyer's purchase). `$1`, `$2`: the
 * period's bounds.
 */
const REFUNDS_IN_PERIOD = `
  SELECT r.id, r.created_at, r.identifier, r.reason_code, r.reason, r.amount, r.requested_by_id,
         ch.currency, ch.identifier AS charge, p.id AS purchase_id, ch.user_id AS buyer_id, pr.id AS product_id, pr.name AS product
    FROM merchant_refunds r
    JOIN merchant_charges ch ON ch.id = r.merchant_charge_id
    LEFT JOIN purchases p ON p.merchant_charge_id = r.merchant_charge_id
    LEFT JOIN products pr ON pr.id = p.product_id
   WHERE r.status = 'succeeded' AND r.created_at >= $1 AND r.created_at < $2`;

/**
 * The period's refunds summed three ways in one pass: by reason and by product in the asked currency, and by
 * currency (which currencies there are). `?`: the bounds, then the currency twice.
 */
const REFUND_GROUPS = `
  WITH s AS MATERIALIZED (${REFUNDS_IN_PERIOD.replace('$1', '?').replace('$2', '?')})
  SELECT 'reason' AS "by", reason_code AS "key", NULL AS name, count(*)::int AS count, sum(amount)::bigint AS amount
    FROM s WHERE currency = ? GROUP BY reason_code
  UNION ALL
  SELECT 'product', product_id::text, product, count(*)::int, sum(amount)::bigint
    FROM s WHERE currency = ? GROUP BY product_id, product
  UNION ALL
  SELECT 'currency', currency, NULL, count(*)::int, sum(amount)::bigint FROM s GROUP BY currency
  ORDER BY amount DESC, count DESC, "key"`;

/** The CSV's columns, in the order of the query's; amounts are numbers, the rest text (formula-safe). */
const REFUND_COLUMNS: { header: string; number?: true }[] = [
  { header: 'Date' },
  { header: 'Refund' },
  { header: 'Reason code' },
  { header: 'Reason' },
  { header: 'Note' },
  { header: 'Product' },
  { header: 'Purchase' },
  { header: 'Buyer email' },
  { header: 'Amount (cents)', number: true },
  { header: 'Currency' },
  { header: 'Requested by' },
  { header: 'Charge' },
];

/** Each reason's label, as SQL: the CSV says "Duplicate purchase" beside 'duplicate'. */
const REASON_LABEL_SQL = `CASE s.reason_code ${REFUND_REASONS.map(
  (code) => `WHEN '${code}' THEN '${refundReasonLabel(code).replaceAll("'", "''")}'`,
).join(' ')} ELSE '${refundReasonLabel(null)}' END`;

const REFUND_ROWS = `
  SELECT to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), s.identifier, s.reason_code,
         ${REASON_LABEL_SQL}, s.reason, s.product, s.purchase_id, buyer.email, s.amount, s.currency,
         COALESCE(staff.email, CASE WHEN s.reason_code = 'provider' THEN 'Payment provider' ELSE 'System' END), s.charge
    FROM (${REFUNDS_IN_PERIOD} ORDER BY r.created_at, r.id) s
    LEFT JOIN users buyer ON buyer.id = s.buyer_id
    LEFT JOIN users staff ON staff.id = s.requested_by_id
   ORDER BY s.created_at, s.id`;

type TextRow = (string | null)[];

/** Finance's reports for the console: refunds by reason and product, and disputes at stake. */
export function financeReports({ db, clock, logger }: { db: Db; clock: Clock; logger: Logger }) {
  return {
    /** The refunds of a period in one currency, by reason and by product, biggest first (integer cents). */
    async refunds(q: ReportQuery): Promise<RefundReportAnswer> {
      // Raw rows keep the database's names: each column is named as the answer reads it.
      const { rows } = (await db.raw(REFUND_GROUPS, [...bounds(q), q.currency, q.currency])) as {
        rows: {
          by: 'reason' | 'product' | 'currency';
          key: string | null;
          name: string | null;
          count: number;
          amount: string;
        }[];
      };
      const of = (by: (typeof rows)[number]['by']) => rows.filter((r) => r.by === by);
      const byReason = of('reason').map((r) => ({
        reason: r.key as RefundReason | null,
        label: refundReasonLabel(r.key),
        count: r.count,
        amountCents: Number(r.amount),
      }));
      const byProduct = of('product').map((r) => ({
        productId: r.key,
        name: r.name ?? 'No purchase',
        count: r.count,
        amountCents: Number(r.amount),
      }));
      return {
        from: q.from,
        to: q.to,
        currency: q.currency,
        currencies: of('currency')
          .map((r) => r.key!)
          .sort(),
        total: {
          count: byReason.reduce((n, r) => n + r.count, 0),
          amountCents: byReason.reduce((n, r) => n + r.amountCents, 0),
        },
        byReason,
        byProduct,
      };
    },

    /**
     * The refunds of a period as CSV, every currency (a column says which), oldest first: when, why (code, label
     * and note), what, whose, how much and who asked. Streamed from a cursor, formula-safe like finance's exports.
     */
    async refundsCsv(q: ReportPeriod): Promise<{ filename: string; total: number; body: Readable }> {
      const period = bounds(q);
      const numbers = REFUND_COLUMNS.map((c) => c.number === true);
      const { total, body } = await openCursorCsv<TextRow>(db, {
        count: { sql: `SELECT count(*) FROM (${REFUNDS_IN_PERIOD}) s`, bindings: period },
        rows: { sql: REFUND_ROWS, bindings: period },
        head: csvHead(REFUND_COLUMNS.map((c) => c.header)),
        line: (row) => csvLine(row, numbers),
        rowMode: 'text',
        onStopped: (error) => logger.warn({ err: error }, 'the refunds export stopped before its end'),
      });
      return { filename: `refunds-${q.from}-to-${q.to}.csv`, total, body };
    },

    /**
     * Disputes at stake now (open ones, their amount, whose evidence is overdue or due within three days) and those
     * opened in the period per week (Mondays, UTC) by where they stand now, in one currency.
     */
    async disputes(q: ReportQuery): Promise<DisputeReportAnswer> {
      const [from, until] = bounds(q);
      const now = clock.now();
      const [stake, weeks] = await Promise.all([
        db.raw(
          `SELECT count(*)::int AS count, COALESCE(sum(d.amount), 0)::bigint AS amount,
                  (count(*) FILTER (WHERE d.evidence_due_by < ?))::int AS overdue,
                  (count(*) FILTER (WHERE d.evidence_due_by >= ? AND d.evidence_due_by < ?))::int AS "dueSoon"
             FROM merchant_disputes d JOIN merchant_charges ch ON ch.id = d.merchant_charge_id
            WHERE d.status = 'open' AND ch.currency = ?`,
          [now, now, new Date(now.getTime() + DUE_SOON_MS), q.currency],
        ),
        db.raw(
          `SELECT to_char(w.week, 'YYYY-MM-DD') AS week,
                  (count(d.id) FILTER (WHERE d.status = 'open'))::int AS open,
                  (count(d.id) FILTER (WHERE d.status = 'won'))::int AS won,
                  (count(d.id) FILTER (WHERE d.status = 'lost'))::int AS lost
             FROM generate_series(date_trunc('week', ?::date), ?::date, interval '1 week') AS w(week)
             LEFT JOIN (merchant_disputes d JOIN merchant_charges ch ON ch.id = d.merchant_charge_id AND ch.currency = ?)
               ON d.created_at >= greatest(w.week, ?::timestamptz) AND d.created_at < least(w.week + interval '1 week', ?::timestamptz)
            GROUP BY w.week ORDER BY w.week`,
          [q.from, q.to, q.currency, from, until],
        ),
      ]);
      const at = stake.rows[0] as { count: number; amount: string; overdue: number; dueSoon: number };
      return {
        from: q.from,
        to: q.to,
        currency: q.currency,
        open: { count: at.count, amountCents: Number(at.amount) },
        overdue: at.overdue,
        dueSoon: at.dueSoon,
        weeks: weeks.rows as DisputeReportAnswer['weeks'],
      };
    },
  };
}

export type FinanceReports = ReturnType<typeof financeReports>;
