import ExcelJS from 'exceljs';
import type { Db } from '../../db/connection';
import { currencyExponent } from '../../shared/currency';
import { AppError } from '../../shared/errors';
import { monthStart, nextMonth } from './months';
import type { CurrencyFigures, MonthCloseRecord } from './schemas';

/**
 * The workbook an accountant receives for a closed month (docs/domain.md §21): the Summary, Tax and Splits sheets
 * from the figures frozen at the close, the Sales, Refunds, Fees and Payouts sheets from the rows dated in the month
 * (nothing is written into a closed month, so they cannot change either). Money is a number in the currency's units
 * (12.5 for 1250 cents, 500 for ¥500) beside its currency; instants are ISO 8601 (UTC).
 */

type Cell = string | number | null;
interface Column {
  header: string;
  /** A money column: the row's minor units, written in the currency's units and formatted to its decimals. */
  money?: true;
  width?: number;
}

const units = (minor: number | string, currency: string) => Number(minor) / 10 ** currencyExponent(currency);
const moneyFormat = (currency: string) => {
  const exponent = currencyExponent(currency);
  return exponent === 0 ? '#,##0' : `#,##0.${'0'.repeat(exponent)}`;
};
const iso = (at: Date | string | null) => (at === null ? null : new Date(at).toISOString());

/** A sheet of rows; `currencyAt` is the column holding each row's currency, which its money columns follow. */
function addSheet(book: ExcelJS.Workbook, name: string, columns: Column[], rows: Cell[][], currencyAt: number): void {
  const sheet = book.addWorksheet(name);
  sheet.columns = columns.map((c) => ({ header: c.header, width: c.width ?? Math.max(12, c.header.length + 2) }));
  sheet.getRow(1).font = { bold: true };
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  for (const values of rows) {
    const currency = String(values[currencyAt]);
    const row = sheet.addRow(values.map((v, i) => (columns[i]?.money && v !== null ? units(v, currency) : v)));
    columns.forEach((c, i) => {
      if (c.money) row.getCell(i + 1).numFmt = moneyFormat(currency);
    });
  }
}

const SUMMARY: Column[] = [
  { header: 'Month' },
  { header: 'Currency' },
  { header: 'Gross sales', money: true },
  { header: 'Tax in sales', money: true },
  { header: 'Fees', money: true },
  { header: 'Revenue (net of tax and fees)', money: true, width: 30 },
  { header: 'Refunds', money: true },
  { header: 'Disputes', money: true },
  { header: 'Net revenue', money: true },
  { header: 'Tax collected', money: true },
  { header: 'Tax refunded', money: true },
  { header: 'Net tax', money: true },
  { header: 'Payouts paid', money: true },
  { header: 'Payouts' },
  { header: 'Of which booked late for closed months', money: true, width: 38 },
  { header: 'Closed at', width: 26 },
  { header: 'Closed by', width: 26 },
];

function summaryRows(close: MonthCloseRecord): Cell[][] {
  return close.figures.map((f: CurrencyFigures) => [
    close.month,
    f.currency,
    f.gross,
    f.tax,
    f.fees,
    f.sales,
    f.refunds,
    f.disputes,
    f.net,
    f.taxCollected,
    f.taxRefunded,
    f.taxNet,
    f.payoutsPaid,
    f.payouts,
    f.lateFromClosedMonths,
    close.closedAt,
    close.closedByEmail,
  ]);
}

/** The month's charges: each sale's amount, the tax inside it, the provider's fee and what is left. */
const SALES = `
  SELECT ch.created_at, ch.identifier, pr.name, ch.currency, ch.amount, ch.tax_amount, ch.fee,
         ch.amount - ch.tax_amount - ch.fee AS net, ch.belongs_to_month
    FROM merchant_charges ch
    LEFT JOIN purchases p ON p.merchant_charge_id = ch.id
    LEFT JOIN products pr ON pr.id = p.product_id
   WHERE ch.created_at >= ? AND ch.created_at < ?
   ORDER BY ch.created_at, ch.id`;

/** Refunds that went through and disputes lost in the month, each with the month it belongs to when booked late. */
const REFUNDS = `
  SELECT * FROM (
    SELECT r.created_at AS at, 'refund' AS kind, r.identifier, ch.identifier AS charge, r.reason_code, ch.currency,
           r.amount, r.belongs_to_month, r.id::text AS id
      FROM merchant_refunds r JOIN merchant_charges ch ON ch.id = r.merchant_charge_id
     WHERE r.status = 'succeeded' AND r.created_at >= ? AND r.created_at < ?
    UNION ALL
    SELECT d.closed_at, 'dispute lost', d.identifier, ch.identifier, d.reason, ch.currency, d.amount,
           d.belongs_to_month, d.id::text
      FROM merchant_disputes d JOIN merchant_charges ch ON ch.id = d.merchant_charge_id
     WHERE d.status = 'lost' AND d.closed_at >= ? AND d.closed_at < ?) x
  ORDER BY at, id`;

const PAYOUTS = `
  SELECT po.paid_at, po.id::text AS id, u.email, u.name, po.currency, po.amount, po.method, po.reference, po.belongs_to_month
    FROM payouts po LEFT JOIN users u ON u.id = po.recipient_id
   WHERE po.status = 'paid' AND po.paid_at >= ? AND po.paid_at < ?
   ORDER BY po.paid_at, po.id`;

/** A query's rows as cells in its columns' order (each column named once), instants as ISO text. */
const rowsOf = async (db: Db, sql: string, bindings: Date[]): Promise<Cell[][]> =>
  ((await db.raw(sql, bindings)) as { rows: Record<string, unknown>[] }).rows.map((r) =>
    Object.values(r).map((v) => (v instanceof Date ? iso(v) : (v as Cell))),
  );

/** A closed month's workbook; a month not closed has none (404 `month-not-closed`). */
export async function monthWorkbook(db: Db, month: string): Promise<{ filename: string; body: Buffer }> {
  const row = (await db('monthCloses').where({ month }).first()) as Omit<MonthCloseRecord, 'id'> | undefined;
  if (!row) throw new AppError('month-not-closed', `${month} is not closed: only a closed month is exported.`);
  const close: MonthCloseRecord = { id: month, ...row, closedAt: iso(row.closedAt)! };
  const from = monthStart(month);
  const until = monthStart(nextMonth(month));
  const [sales, refunds, payouts] = await Promise.all([
    rowsOf(db, SALES, [from, until]),
    rowsOf(db, REFUNDS, [from, until, from, until]),
    rowsOf(db, PAYOUTS, [from, until]),
  ]);

  const book = new ExcelJS.Workbook();
  book.created = new Date(close.closedAt);
  addSheet(book, 'Summary', SUMMARY, summaryRows(close), 1);
  addSheet(
    book,
    'Sales',
    [
      { header: 'Date', width: 26 },
      { header: 'Charge', width: 28 },
      { header: 'Product', width: 30 },
      { header: 'Currency' },
      { header: 'Amount', money: true },
      { header: 'Tax', money: true },
      { header: 'Fee', money: true },
      { header: 'Net', money: true },
      { header: 'Belongs to month', width: 18 },
    ],
    sales,
    3,
  );
  addSheet(
    book,
    'Refunds',
    [
      { header: 'Date', width: 26 },
      { header: 'Kind' },
      { header: 'Refund or dispute', width: 28 },
      { header: 'Charge', width: 28 },
      { header: 'Reason', width: 20 },
      { header: 'Currency' },
      { header: 'Amount', money: true },
      { header: 'Belongs to month', width: 18 },
    ],
    refunds.map((r) => r.slice(0, 8)),
    5,
  );
  addSheet(
    book,
    'Tax',
    [
      { header: 'Currency' },
      { header: 'Country' },
      { header: 'Collected', money: true },
      { header: 'Refunded', money: true },
      { header: 'Net', money: true },
    ],
    close.figures.flatMap((f) =>
      f.taxByCountry.map((t) => [f.currency, t.country, t.collected, t.refunded, t.net] as Cell[]),
    ),
    0,
  );
  addSheet(
    book,
    'Fees',
    [
      { header: 'Date', width: 26 },
      { header: 'Charge', width: 28 },
      { header: 'Currency' },
      { header: 'Fee', money: true },
    ],
    sales.filter((s) => Number(s[6]) !== 0).map((s) => [s[0], s[1], s[3], s[6]] as Cell[]),
    2,
  );
  addSheet(
    book,
    'Splits',
    [
      { header: 'Currency' },
      { header: 'Recipient type' },
      { header: 'Email', width: 28 },
      { header: 'Name', width: 24 },
      { header: 'Sales', money: true },
      { header: 'Refunds', money: true },
      { header: 'Disputes', money: true },
      { header: 'Total', money: true },
    ],
    close.figures.flatMap((f) =>
      f.splits.map((s) => [f.currency, s.type, s.email, s.name, s.sales, s.refunds, s.disputes, s.total] as Cell[]),
    ),
    0,
  );
  addSheet(
    book,
    'Payouts',
    [
      { header: 'Paid at', width: 26 },
      { header: 'Payout', width: 38 },
      { header: 'Recipient email', width: 28 },
      { header: 'Recipient name', width: 24 },
      { header: 'Currency' },
      { header: 'Amount', money: true },
      { header: 'Method' },
      { header: 'Reference', width: 24 },
      { header: 'Belongs to month', width: 18 },
    ],
    payouts,
    4,
  );
  const body = Buffer.from(await book.xlsx.writeBuffer());
  return { filename: `month-close-${month}.xlsx`, body };
}
