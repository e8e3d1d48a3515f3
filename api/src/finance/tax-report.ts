import type { Readable } from 'node:stream';
import type { Db } from '../db/connection';
import { openCursorCsv } from '../db/csv-cursor';
import { csvHead, csvLine } from '../http/csv';
import type { Logger } from '../logger';
import { currencyExponent } from '../shared/currency';
import { mostSold } from '../shared/finance';
import type { TaxAmounts, TaxPeriod, TaxSummaryAnswer, TaxSummaryQuery } from './schemas';

/**
 * The tax a finance team files (docs/domain.md §18.7), read from the documents issued rather than from charges: an
 * invoice says what was sold, where it was taxed, at what rate and under which scheme (decided when it was issued,
 * from the school's registrations then), a credit note what a refund gave back. A corrected invoice changes the
 * buyer's details, never the sale, so only the first invoice of a charge counts. The period follows the date of
 * supply (the sale's payment, a credit note's refund), whenever the document was issued.
 */

/** A period as instants: from the first day's start (UTC) to the last day's, which is not in it. */
const bounds = (q: TaxPeriod): [Date, Date] => [new Date(`${q.from}T00:00:00Z`), new Date(`${q.to}T00:00:00Z`)];

/** The period's days (UTC) as the daily rollup has them: from `$3` up to `$4`, not included (its bounds as text). */
const IN_PERIOD = `r.day >= $3::date AND r.day < $4::date`;

/**
 * The invoices (first issues only) and credit notes supplied in the period, summed per day by the documents' own
 * inserts (docs/domain.md §18.8: per day, currency, kind, scheme, place, tax and rate), each with the day of its
 * sale (a credit note of an earlier period's sale corrects that period's return). A period is whole days, so the
 * rollup's days are all it reads.
 */
const DOCUMENTS = `
  SELECT r.kind, r.currency, r.tax_scheme, r.tax_country, r.tax_region, r.tax_name, r.tax_rate_bp, r.documents,
         r.taxable, r.tax AS tax_amount, 0 AS dispute_tax, r.sold_day,
         r.buyer_country, r.buyer_region
    FROM tax_daily_documents r
   WHERE ${IN_PERIOD}`;

/**
 * Disputes lost in the period whose sum carried tax, on their sale's row: the tax went back to the buyer with it,
 * yet no credit note says so. Whether the tax office lets the school reclaim it is the school's call, so the report
 * only shows it. `$1`, `$2`: the period's bounds as instants.
 */
const LOST_DISPUTES = `
  SELECT 'lost-dispute' AS kind, i.currency, i.tax_scheme, i.tax_country, i.tax_region, i.tax_name, i.tax_rate_bp,
         0 AS documents, 0 AS taxable, 0 AS tax_amount, d.tax_amount AS dispute_tax,
         (i.supplied_at AT TIME ZONE 'UTC')::date AS sold_day, i.buyer->>'country' AS buyer_country,
         i.buyer->>'region' AS buyer_region
    FROM merchant_disputes d
    JOIN invoices i ON i.merchant_charge_id = d.merchant_charge_id AND i.kind = 'invoice' AND i.corrects_id IS NULL
   WHERE d.status = 'lost' AND d.tax_amount > 0 AND d.closed_at >= $1 AND d.closed_at < $2`;

/**
 * Which return a row belongs on, as its invoice says: the home return (domestic), the EU One-Stop Shop, the EC sales
 * list (reverse charge: no tax, the buyer accounts for it), another registration's return (GB, AU, a US state, an
 * EU country the school is registered in itself...), or none (no tax where the school is not registered). Listed in
 * the report's order; another registration is `other-registration` in the report's words.
 */
const TAX_SCHEMES = ['domestic', 'eu-oss', 'reverse-charge', 'other-registration', 'not-taxed'] as const;

const SCHEME = `CASE d.tax_scheme WHEN 'registration' THEN 'other-registration' ELSE d.tax_scheme END`;
const SCHEME_ORDER = `array_position(ARRAY[${TAX_SCHEMES.map((s) => `'${s}'`).join(', ')}], g.scheme)`;

/** One row per currency, scheme, place, tax and rate, and the earlier quarter a credit note corrects, if any. */
const GROUPED = `
  SELECT d.currency, ${SCHEME} AS scheme,
         COALESCE(d.tax_country, d.buyer_country) AS country,
         CASE WHEN d.tax_country IS NULL THEN d.buyer_region ELSE d.tax_region END AS region,
         d.tax_name, d.tax_rate_bp,
         CASE WHEN d.kind <> 'invoice' AND d.sold_day < $3::date
              THEN to_char(d.sold_day::timestamp, 'YYYY-"Q"Q') END AS corrects_period,
         COALESCE(sum(d.documents) FILTER (WHERE d.kind = 'invoice'), 0) AS invoices,
         COALESCE(sum(d.taxable) FILTER (WHERE d.kind = 'invoice'), 0) AS taxable,
         COALESCE(sum(d.tax_amount) FILTER (WHERE d.kind = 'invoice'), 0) AS tax,
         COALESCE(sum(d.documents) FILTER (WHERE d.kind = 'credit-note'), 0) AS credit_notes,
         COALESCE(sum(d.taxable) FILTER (WHERE d.kind = 'credit-note'), 0) AS refunded_taxable,
         COALESCE(sum(d.tax_amount) FILTER (WHERE d.kind = 'credit-note'), 0) AS refunded_tax,
         sum(d.dispute_tax) AS dispute_tax
    FROM (${DOCUMENTS} UNION ALL ${LOST_DISPUTES}) d
   GROUP BY 1, 2, 3, 4, 5, 6, 7`;

const ROWS = `
  SELECT g.currency, g.scheme, g.country, g.region, g.tax_name, g.tax_rate_bp, g.invoices, g.taxable, g.tax,
         g.credit_notes, g.refunded_taxable, g.refunded_tax, g.taxable - g.refunded_taxable, g.tax - g.refunded_tax,
         g.dispute_tax, g.corrects_period
    FROM (${GROUPED}) g
   ORDER BY g.currency, ${SCHEME_ORDER}, g.country NULLS FIRST, g.region NULLS FIRST, g.tax_rate_bp NULLS FIRST,
            g.tax_name NULLS FIRST, g.corrects_period NULLS FIRST`;

/**
 * The CSV's columns in the query's order. `money` columns are the currency's minor units written as its decimals
 * (12.50, ¥500 as 500); the rate is in percent (19.00, 14.975). Numbers are never formula-escaped, text always is.
 */
const COLUMNS: { header: string; number?: true; money?: true; rate?: true }[] = [
  { header: 'Currency' },
  { header: 'Scheme' },
  { header: 'Country' },
  { header: 'Region' },
  { header: 'Tax name' },
  { header: 'Rate (%)', number: true, rate: true },
  { header: 'Invoices', number: true },
  { header: 'Taxable amount', number: true, money: true },
  { header: 'Tax', number: true, money: true },
  { header: 'Credit notes', number: true },
  { header: 'Refunded taxable amount', number: true, money: true },
  { header: 'Refunded tax', number: true, money: true },
  { header: 'Net taxable amount', number: true, money: true },
  { header: 'Net tax due', number: true, money: true },
  { header: 'Tax in lost disputes', number: true, money: true },
  { header: 'Corrects period' },
];

/** An integer of minor units as the currency's decimals, digit by digit (no floats): -1250, 2 → "-12.50". */
function decimalText(minor: string, exponent: number): string {
  if (exponent === 0) return minor;
  const negative = minor.startsWith('-');
  const digits = (negative ? minor.slice(1) : minor).padStart(exponent + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/**
 * A rate in basis points, to a tenth (numeric text: "1900.0", "1497.5"), as a percent with two decimals, or three
 * where the tenth needs them: 19.00, 14.975.
 */
function percentText(basisPoints: string): string {
  const [whole, tenth = '0'] = basisPoints.split('.');
  const text = decimalText(`${whole}${tenth.slice(0, 1)}`, 3);
  return text.endsWith('0') ? text.slice(0, -1) : text;
}

type TextRow = (string | null)[];

/**
 * Invoices' tax and credit notes' tax per month, currency and country, from the daily rollup: a rollup row with no
 * tax holds only documents without it (tax is never negative), which the summary leaves out. The period's days.
 */
const SUMMARY = `
  SELECT to_char(r.day::timestamp, 'YYYY-MM') AS month, r.currency, r.tax_country AS country,
         COALESCE(sum(r.tax) FILTER (WHERE r.kind = 'invoice'), 0)::bigint AS collected,
         COALESCE(sum(r.tax) FILTER (WHERE r.kind = 'credit-note'), 0)::bigint AS refunded
    FROM tax_daily_documents r
   WHERE ${IN_PERIOD.replace('$3', '?').replace('$4', '?')} AND r.tax > 0
   GROUP BY 1, 2, 3
   ORDER BY 1, 3`;

const amountsOf = (collected: number, refunded: number): TaxAmounts => ({
  collected,
  refunded,
  net: collected - refunded,
});

/** The months a period touches, "YYYY-MM", first to last (the last day is the one before `to`). */
function monthsOf(q: TaxPeriod): string[] {
  const months: string[] = [];
  const last = new Date(Date.parse(`${q.to}T00:00:00Z`) - 1);
  const end = last.getUTCFullYear() * 12 + last.getUTCMonth();
  const [year, month] = q.from.split('-').map(Number) as [number, number];
  for (let m = year * 12 + month - 1; m <= end; m++)
    months.push(`${Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`);
  return months;
}

export function taxReport({ db, logger }: { db: Db; logger: Logger }) {
  return {
    /**
     * The tax report for filing as CSV (docs/api.md): read from a cursor in one repeatable-read transaction, the
     * period's days summed once, formula-safe like finance's other exports.
     */
    async csv(q: TaxPeriod): Promise<{ filename: string; body: Readable }> {
      const period = bounds(q);
      const numbers = COLUMNS.map((c) => c.number === true);
      const { body } = await openCursorCsv<TextRow>(db, {
        // A few rows per currency and place, summed from the period's days: nothing for a progress bar to count, and
        // counting them first would hold the header line back for the whole report's work.
        count: 'unannounced',
        rows: { sql: ROWS, bindings: [...period, q.from, q.to] },
        head: csvHead(COLUMNS.map((c) => c.header)),
        line: (row) => {
          const exponent = currencyExponent(row[0]!);
          COLUMNS.forEach((column, i) => {
            const value = row[i];
            if (value == null) return;
            if (column.money) row[i] = decimalText(value, exponent);
            else if (column.rate) row[i] = percentText(value);
          });
          return csvLine(row, numbers);
        },
        rowMode: 'text',
        onStopped: (error) => logger.warn({ err: error }, 'the tax report stopped before its end'),
      });
      return { filename: `tax-report-${q.from}-to-${q.to}.csv`, body };
    },

    /**
     * Tax collected (invoices), given back (credit notes) and net, per month and country, in one currency (by default
     * the one with the most tax collected): for the Finance page's chart and table.
     */
    async summary(q: TaxSummaryQuery): Promise<TaxSummaryAnswer> {
      const { rows } = (await db.raw(SUMMARY, [q.from, q.to])) as {
        rows: { month: string; currency: string; country: string; collected: string; refunded: string }[];
      };
      const collectedBy = new Map<string, number>();
      for (const r of rows) collectedBy.set(r.currency, (collectedBy.get(r.currency) ?? 0) + Number(r.collected));
      const currency = q.currency ?? mostSold(collectedBy);
      const mine = rows
        .filter((r) => r.currency === currency)
        .map((r) => ({ month: r.month, country: r.country, ...amountsOf(Number(r.collected), Number(r.refunded)) }));
      const sum = (list: TaxAmounts[]) =>
        amountsOf(
          list.reduce((n, r) => n + r.collected, 0),
          list.reduce((n, r) => n + r.refunded, 0),
        );
      const countries = [...new Set(mine.map((r) => r.country))]
        .map((country) => ({ country, ...sum(mine.filter((r) => r.country === country)) }))
        .sort((a, b) => b.net - a.net || a.country.localeCompare(b.country));
      return {
        from: q.from,
        to: q.to,
        currency,
        currencies: [...collectedBy.keys()].sort(),
        totals: sum(mine),
        months: monthsOf(q).map((month) => ({ month, ...sum(mine.filter((r) => r.month === month)) })),
        countries,
        byMonthAndCountry: mine,
      };
    },
  };
}

export type TaxReport = ReturnType<typeof taxReport>;
