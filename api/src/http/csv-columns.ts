import { currencyExponent } from '../shared/currency';
import { csvCell, csvText } from './csv';

/**
 * An export's columns as people read them (every console list's CSV): each a header and how its cell is written
 * from the row, one declaration per list. Names and emails rather than ids, money in its currency's units, every
 * instant in ISO 8601 UTC, lists as words, no JSON.
 */

export type CsvRow = Record<string, unknown>;

export interface CsvColumn {
  header: string;
  /** The cell as CSV text (already quoted and formula-safe). */
  cell(row: CsvRow): string;
  /**
   * What the cell is made of, declared, so that PostgreSQL can write it (api/src/admin/lists/sql-cells.ts): the same
   * bytes as `cell`, without a row built in Node. A column without it is written by `cell`.
   */
  source?: CellSource;
}

/**
 * A cell's declaration: the kind of column and the row's fields it reads, or (a value the list derives) the SQL of
 * its text, from the row's columns as `field` names them.
 */
export type CellSource =
  | { kind: 'value' | 'instant' | 'yesNo' | 'yesIfSet' | 'words'; field: string }
  | { kind: 'labelled'; field: string; labels: Readonly<Record<string, string>> }
  | { kind: 'money'; field: string; currencyField: string }
  | { kind: 'text-sql'; sql(field: (name: string) => string): string };

/** A value as the row has it: text quoted and neutralised as it must be, a number as it is. */
const asItIs = (header: string, field: string): CsvColumn => ({
  header,
  cell: (row) => csvCell(row[field] ?? null),
  source: { kind: 'value', field },
});

/** Text (a name, an email, a code). */
export const text = (header: string, field: string): CsvColumn => asItIs(header, field);

/** A count or a plain number. */
export const number = (header: string, field: string): CsvColumn => asItIs(header, field);

/** An instant in ISO 8601 UTC (`2026-11-28T15:04:05.000Z`), whether the row has it as a Date or as its JSON. */
export const instant = (header: string, field: string): CsvColumn => ({
  header,
  cell: (row) => isoInstant(row[field]),
  source: { kind: 'instant', field },
});

/** Yes or No (an empty cell for no value). */
export const yesNo = (header: string, field: string): CsvColumn => ({
  header,
  cell: (row) => (row[field] == null ? '' : row[field] ? 'Yes' : 'No'),
  source: { kind: 'yesNo', field },
});

/** Yes when the field has a value (an instant something happened: blocked, hidden), No when it has none. */
export const yesIfSet = (header: string, field: string): CsvColumn => ({
  header,
  cell: (row) => (row[field] ? 'Yes' : 'No'),
  source: { kind: 'yesIfSet', field },
});

/** A list of words (roles) as one cell: `support, finance`. */
export const words = (header: string, field: string): CsvColumn => ({
  header,
  cell: (row) => (Array.isArray(row[field]) ? csvText((row[field] as unknown[]).join(', ')) : csvCell(row[field])),
  source: { kind: 'words', field },
});

/** A code in the words the console shows for it (a state, a reason); a code without words stays as it is. */
export const labelled = (header: string, field: string, labels: Readonly<Record<string, string>>): CsvColumn => ({
  header,
  cell: (row) => {
    const code = row[field];
    return typeof code === 'string' && Object.hasOwn(labels, code) ? csvText(labels[code]!) : csvCell(code ?? null);
  },
  source: { kind: 'labelled', field, labels },
});

/**
 * An amount in minor units as money in its currency's units: 2450 in `usd` is 24.50, 4000 in `jpy` is 4000. The
 * currency is another field of the row (`currency` unless named), written in a column of its own; the cell stays a
 * number a spreadsheet can sum.
 */
export const money = (header: string, field: string, currencyField = 'currency'): CsvColumn => ({
  header,
  cell: (row) => {
    const amount = row[field];
    const currency = row[currencyField];
    if (amount == null || amount === '' || typeof currency !== 'string') return amount == null ? '' : csvCell(amount);
    return inCurrencyUnits(Number(amount), currency);
  },
  source: { kind: 'money', field, currencyField },
});

/**
 * A value made from several fields of the row (`3 / 10` seats), or one the list derives; `sql`, when given, is the
 * same value as a text in SQL (null for an empty cell), from the row's columns as `field` names them.
 */
export const derived = (
  header: string,
  value: (row: CsvRow) => unknown,
  sql?: (field: (name: string) => string) => string,
): CsvColumn => ({
  header,
  cell: (row) => csvCell(value(row) ?? null),
  ...(sql && { source: { kind: 'text-sql', sql } }),
});

/** The header line's cells. */
export const headersOf = (columns: readonly CsvColumn[]): string[] => columns.map((c) => c.header);

/** One CSV line (CRLF-terminated) of a row. */
export const csvRowLine = (columns: readonly CsvColumn[], row: CsvRow): string =>
  `${columns.map((c) => c.cell(row)).join(',')}\r\n`;

/** toISOString's own shape: a row's dates arrive so from its JSON, and are written as they are. */
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function isoInstant(value: unknown): string {
  if (value == null || value === '') return '';
  if (typeof value === 'string' && ISO_UTC.test(value)) return value;
  const date = value instanceof Date ? value : new Date(value as string);
  return Number.isNaN(date.getTime()) ? csvCell(value) : date.toISOString();
}

/** Minor units as a decimal in the currency's units, exactly (integer arithmetic, no float rounding): -705 → -7.05. */
function inCurrencyUnits(minor: number, currency: string): string {
  const digits = currencyExponent(currency);
  if (!Number.isSafeInteger(minor)) return csvCell(minor);
  if (digits === 0) return String(minor);
  const sign = minor < 0 ? '-' : '';
  const padded = String(Math.abs(minor)).padStart(digits + 1, '0');
  return `${sign}${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}
