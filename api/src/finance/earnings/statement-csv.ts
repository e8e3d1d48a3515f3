import { csvHead, csvLine } from '../../http/csv';
import { dayOf, decimalAmount, percentText } from './amounts';
import type { Statement } from './schemas';

const COLUMNS = [
  { header: 'Record' },
  { header: 'Date' },
  { header: 'Product' },
  { header: 'Kind' },
  { header: 'As' },
  { header: 'Reference' },
  { header: 'Currency' },
  { header: 'Gross', number: true },
  { header: 'Tax', number: true },
  { header: 'Fee', number: true },
  { header: 'Share (%)', number: true },
  { header: 'Amount', number: true },
] as const;
const NUMBERS = COLUMNS.map((c) => 'number' in c);

/**
 * A month's statement as one CSV table: a row per ledger line, then per currency its opening balance, earned,
 * clawed back, paid out and closing balance, then a row per payout paid in the month. Amounts are decimals in each
 * currency's own decimals (yen whole); text cells are neutralised against formulas (http/csv.ts).
 */
export function statementCsv(statement: Statement): string {
  let csv = csvHead(COLUMNS.map((c) => c.header));
  for (const line of statement.lines) {
    const money = (amount: number) => decimalAmount(amount, line.currency);
    csv += csvLine(
      [
        'Line',
        dayOf(line.createdAt),
        line.productName,
        line.kind,
        line.recipientType,
        null,
        line.currency.toUpperCase(),
        money(line.gross),
        money(line.tax),
        money(line.fee),
        line.percent === null ? null : percentText(line.percent),
        money(line.amount),
      ],
      NUMBERS,
    );
  }
  for (const total of statement.totals) {
    const rows: [string, number][] = [
      ['Opening balance', total.opening],
      ['Earned', total.earned],
      ['Clawed back', -total.clawedBack],
      ['Paid out', -total.paidOut],
      ['Closing balance', total.closing],
    ];
    for (const [record, amount] of rows)
      csv += csvLine(
        [
          record,
          null,
          null,
          null,
          null,
          null,
          total.currency.toUpperCase(),
          null,
          null,
          null,
          null,
          decimalAmount(amount, total.currency),
        ],
        NUMBERS,
      );
  }
  for (const payout of statement.payouts)
    csv += csvLine(
      [
        'Payout',
        payout.paidAt ? dayOf(payout.paidAt) : null,
        null,
        'payout',
        payout.method,
        payout.reference,
        payout.currency.toUpperCase(),
        null,
        null,
        null,
        null,
        decimalAmount(payout.amount, payout.currency),
      ],
      NUMBERS,
    );
  return csv;
}
