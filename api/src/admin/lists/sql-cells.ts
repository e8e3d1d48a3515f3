import { snakeCaseMappers } from 'objection';
import pg from 'pg';
import type { CopyField } from '../../db/copy-csv';
import type { CellSource, CsvColumn } from '../../http/csv-columns';
import { currencyExponent } from '../../shared/currency';
import type { Row } from '../resource';

/**
 * A list export's cells written by PostgreSQL: each column's cell as SQL over the list's row (`q`), giving the text
 * the column's `cell` gives from the row as the list's JSON has it (row-values.ts), before any CSV quoting. COPY …
 * (FORMAT csv) then quotes it, and copy-csv-cells.ts makes a text cell formula-safe and quoted as csv.ts does: no row
 * is built in Node. Decided from the row's column types; a column whose type or kind has no exact SQL twin here (a
 * JSON column, a date, a number the driver reads as a float, a derived value without its SQL) leaves the whole export
 * to Node's writer. tests/api/list-export-bytes.test.ts holds the bytes of both.
 */

const { parse: camelCased } = snakeCaseMappers();
const { builtins } = pg.types;
/** PostgreSQL's text kept as it is by the driver (text, uuid, an enum): a string in the row. */
const AS_TEXT = pg.types.getTypeParser(builtins.TEXT, 'text');
/** Integers (the driver reads int8 as a number too) and booleans: their text is JavaScript's String() of them. */
const PLAIN = new Set<number>([builtins.INT2, builtins.INT4, builtins.INT8, builtins.BOOL]);
const INTEGERS = new Set<number>([builtins.INT2, builtins.INT4, builtins.INT8]);
/** Arrays of text, which the driver reads as arrays of strings. */
const TEXT_ARRAYS = new Set<number>([1009, 1015]);

/** A cell's SQL, and whether it is a number (written as it comes) or a text (made formula-safe, quoted). */
interface SqlCell {
  sql: string;
  number: boolean;
}

/** A column of the row: how SQL names it and what the driver makes of it. */
interface Field {
  sql: string;
  type: number;
  text: boolean;
}

/** An instant as toISOString() writes it; to_char's milliseconds are cut, as the driver's Date cuts them. */
const isoInstant = (sql: string) => `to_char(${sql} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A quoted SQL literal. */
const literal = (text: string) => pg.escapeLiteral(text);

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
let notCents: ReadonlyMap<number, readonly string[]> | null = null;

/**
 * Every code whose minor unit is not the cent, by its decimals, as currencyExponent has them: only a code of three
 * letters can have other decimals (anything else is not a currency, shown as cents), and Intl knows historical codes
 * (esp, itl) besides today's. Its decimals come from the same data as its names, so the codes Intl names are the
 * ones asked (a few hundred of the 17,576), once.
 */
function codesNotInCents(): ReadonlyMap<number, readonly string[]> {
  if (notCents) return notCents;
  const names = new Intl.DisplayNames('en', { type: 'currency', fallback: 'none' });
  const byDigits = new Map<number, string[]>();
  for (const a of LETTERS)
    for (const b of LETTERS)
      for (const c of LETTERS) {
        const code = a + b + c;
        const digits = names.of(code) === undefined ? 2 : currencyExponent(code);
        if (digits !== 2) byDigits.set(digits, [...(byDigits.get(digits) ?? []), code]);
      }
  return (notCents = byDigits);
}

/** Works out the currencies' decimals ahead of the first export (tens of milliseconds), off the request's path. */
export function prepareSqlCells(): void {
  codesNotInCents();
}

/** Today's currencies in cents (usd, eur): most rows', matched as written before anything else is tried. */
const TODAYS_CENTS = Intl.supportedValuesOf('currency')
  .map((code) => code.toLowerCase())
  .filter((code) => currencyExponent(code) === 2);

/**
 * Minor units as a decimal in the currency's units, as csv-columns.ts's money writes them (-705 usd → -7.05): an
 * integer times 0.01 is PostgreSQL's numeric with exactly two decimals. The currency as written is tried before its
 * lower case (a call per row).
 */
function inCurrencyUnits(amount: string, currency: string): string {
  const units = (digits: number) =>
    digits === 0 ? `${amount}::text` : `(${amount} * 0.${'0'.repeat(digits - 1)}1)::text`;
  const codes = (list: readonly string[]) => list.map(literal).join(', ');
  const others = [...codesNotInCents()];
  const exact = others.map(([digits, list]) => `WHEN ${currency} IN (${codes(list)}) THEN ${units(digits)}`);
  const lowered = others.map(([digits, list]) => `WHEN lower(${currency}) IN (${codes(list)}) THEN ${units(digits)}`);
  return `CASE WHEN ${currency} IN (${codes(TODAYS_CENTS)}) THEN ${units(2)} ${exact.join(' ')} ${lowered.join(' ')}
          ELSE ${units(2)} END`;
}

/** A value as csvCell writes it from the row's JSON: a text as text, an integer or a boolean as it is. */
function valueCell(field: Field): SqlCell | null {
  if (field.text) return { sql: `${field.sql}::text`, number: false };
  if (PLAIN.has(field.type)) return { sql: `${field.sql}::text`, number: true };
  if (field.type === builtins.TIMESTAMPTZ) return { sql: isoInstant(field.sql), number: true };
  return null;
}

function cellOf(source: CellSource, fieldOf: (name: string) => Field | null): SqlCell | null {
  if (source.kind === 'text-sql') {
    let unknown = false;
    const sql = source.sql((name) => fieldOf(name)?.sql ?? ((unknown = true), 'NULL'));
    return unknown ? null : { sql, number: false };
  }
  const field = fieldOf(source.field);
  if (!field) return null;
  switch (source.kind) {
    case 'value':
      return valueCell(field);
    case 'instant':
      return field.type === builtins.TIMESTAMPTZ ? { sql: isoInstant(field.sql), number: true } : null;
    case 'yesNo':
      return field.type === builtins.BOOL
        ? { sql: `CASE WHEN ${field.sql} THEN 'Yes' WHEN NOT ${field.sql} THEN 'No' END`, number: true }
        : null;
    case 'yesIfSet':
      // An instant is set or not; a text or a number could be set and still read as false in Node ('' or 0).
      return field.type === builtins.TIMESTAMPTZ
        ? { sql: `CASE WHEN ${field.sql} IS NULL THEN 'No' ELSE 'Yes' END`, number: true }
        : null;
    case 'words':
      return TEXT_ARRAYS.has(field.type)
        ? { sql: `array_to_string(${field.sql}, ', ', '')`, number: false }
        : valueCell(field);
    case 'labelled': {
      if (!field.text) return valueCell(field);
      const labels = Object.entries(source.labels).map(
        ([code, label]) => `WHEN ${literal(code)} THEN ${literal(label)}`,
      );
      return {
        sql: labels.length
          ? `CASE ${field.sql}::text ${labels.join(' ')} ELSE ${field.sql}::text END`
          : `${field.sql}::text`,
        number: false,
      };
    }
    case 'money': {
      const currency = fieldOf(source.currencyField);
      if (!INTEGERS.has(field.type) || !currency?.text) return null;
      return {
        sql: `CASE WHEN ${currency.sql} IS NULL THEN ${field.sql}::text ELSE ${inCurrencyUnits(field.sql, currency.sql)} END`,
        number: true,
      };
    }
  }
}

/**
 * The export's SELECT over the list's rows (`rows`, whose columns are `fields`) with every column's cell as SQL, and
 * which cells are numbers; or null when a column has no SQL twin here. It only computes each row's cells from the
 * list's ordered rows (no join, no grouping above them), so the rows leave in the list's order, as they come.
 */
export function sqlCells(
  rows: string,
  fields: readonly CopyField[],
  columns: readonly CsvColumn[],
  jsonAttributes: readonly string[],
): { select: string; numbers: boolean[] } | null {
  // Keyed as the list's JSON keys them; a name twice in the row is left to Node, which keeps the last.
  const byKey = new Map<string, Field | null>();
  for (const f of fields) {
    const key = Object.keys(camelCased({ [f.name]: null }) as Row)[0]!;
    const json = jsonAttributes.includes(key);
    const text = !json && pg.types.getTypeParser(f.dataTypeID, 'text') === AS_TEXT;
    byKey.set(
      key,
      byKey.has(key) || json ? null : { sql: `q.${pg.escapeIdentifier(f.name)}`, type: f.dataTypeID, text },
    );
  }
  const fieldOf = (name: string) => byKey.get(name) ?? null;
  const cells: SqlCell[] = [];
  for (const column of columns) {
    const cell = column.source ? cellOf(column.source, fieldOf) : null;
    if (!cell) return null;
    cells.push(cell);
  }
  return {
    select: `SELECT ${cells.map((c) => c.sql).join(', ')} FROM (${rows}) AS q`,
    numbers: cells.map((c) => c.number),
  };
}
