import { Readable } from 'node:stream';
import { csvHead } from './csv';
import { csvRowLine, headersOf, type CsvColumn, type CsvRow } from './csv-columns';

/** Rows read a page at a time for `pagedCsv`. */
const PAGE_ROWS = 500;

/**
 * A list served by its own code (not a console resource's query) as CSV: read through that same code a page at a
 * time as the client takes the file (memory holds one page), each row in its declared `columns`. `page` answers
 * the rows at an offset and the list's total; the first page is read before the answer starts, so a refused query
 * is an error answer, not a broken file.
 */
export async function pagedCsv<R extends object>(
  columns: readonly CsvColumn[],
  page: (offset: number, limit: number) => Promise<{ rows: R[]; total: number }>,
): Promise<{ total: number; body: Readable }> {
  const first = await page(0, PAGE_ROWS);
  const lines = (rows: R[]) => rows.map((row) => csvRowLine(columns, row as CsvRow)).join('');
  async function* csv() {
    yield csvHead(headersOf(columns)) + lines(first.rows);
    for (let offset = PAGE_ROWS, last = first.rows; last.length === PAGE_ROWS; offset += PAGE_ROWS) {
      last = (await page(offset, PAGE_ROWS)).rows;
      yield lines(last);
    }
  }
  return { total: first.total, body: Readable.from(csv()) };
}
