/**
 * CSV as RFC 4180 writes it (comma, double quotes, CRLF), for exports of millions of rows (finance's and every
 * console list's), readable whichever separator a spreadsheet's locale expects: Excel in much of Europe splits on
 * `;`, so a cell is quoted when it holds a comma, a semicolon, a quote, a line break or a tab, or starts or ends with
 * a space (which a spreadsheet would trim), and a quote inside is doubled. Finance's values arrive as PostgreSQL's
 * own text, so nothing is parsed only to be printed again. csv-stringify writes the same bytes (with `quoted_match`
 * for the semicolon, tab and edge spaces) at five to ten times the cost per row (tuples and closures for every
 * cell), and with CRLF records it left a lone CR or LF unquoted, which splits the record:
 * tests/unit/finance-csv.test.ts holds the two side by side.
 */

/** A formula start, after any spaces a spreadsheet would skip: = + - @, or a tab or carriage return. */
const FORMULA = /^ *[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",;\t\r\n]|^ | $/;
const QUOTES = /"/g;

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return) as a formula (OWASP's CSV
 * injection); a leading apostrophe makes it text. The check is on the whole cell: a `;=cmd` inside one is quoted, so
 * no spreadsheet splits a formula out of it. Only text cells are touched: amounts stay numbers (a refund is a
 * negative number, not a formula).
 */
export function neutraliseFormula(value: string): string {
  return FORMULA.test(value) ? `'${value}` : value;
}

/** A text cell: neutralised, then quoted if it must be. */
export function csvText(value: string): string {
  const text = neutraliseFormula(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(QUOTES, '""')}"` : text;
}

/** The byte-order mark (spreadsheets then read accents as UTF-8) and the header line. */
export function csvHead(headers: readonly string[]): string {
  return `\uFEFF${headers.map(csvText).join(',')}\r\n`;
}

/**
 * One line, ended by CRLF. A null is an empty cell; a column marked as a number is written as it comes (digits and
 * a sign: never a formula, never quoted), every other one as text. The row is the caller's to throw away: its text
 * cells are replaced by their CSV form, and the line is one flat string (little garbage per row).
 */
export function csvLine(row: (string | null)[], numbers: readonly boolean[]): string {
  for (let i = 0; i < row.length; i++) {
    const value = row[i];
    if (value != null && !numbers[i]) row[i] = csvText(value);
  }
  return `${row.join(',')}\r\n`; // a null joins as an empty cell
}

/**
 * A cell from a value as the API's JSON would show it (the console lists' exports): numbers and booleans as they
 * are, dates as ISO instants, objects and arrays as their JSON, and every text (a JSON text too) as a text cell,
 * neutralised. A number is never a formula; a text that looks like one is.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  return csvText(typeof value === 'string' ? value : JSON.stringify(value));
}
