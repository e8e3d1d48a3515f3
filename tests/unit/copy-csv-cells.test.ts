import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CopyCsvCells } from '../../api/src/db/copy-csv-cells';
import { csvHead, csvLine } from '../../api/src/http/csv';

/** A value as PostgreSQL's COPY (FORMAT csv) writes it: NULL empty, an empty text `""`, quoted as it must be. */
const copyCell = (value: string | null) =>
  value === null ? '' : value === '' || /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
const copyCsv = (rows: (string | null)[][]) => rows.map((row) => `${row.map(copyCell).join(',')}\n`).join('');

const cell = fc.option(
  fc.oneof(
    fc.string(),
    fc.string({
      unit: fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', '"', ',', ';', "'", ' ', 'a', 'é', '✓', '＝'),
    }),
  ),
  { nil: null },
);
const number = fc.option(fc.integer().map(String), { nil: null });
const NUMBERS = [false, true, false, true, false];
const HEAD = csvHead(['Text', 'Amount', 'More', 'Count', 'Last']);

/** The bytes through the rewriter, cut into chunks at the given places (a chunk may end anywhere, mid-character too). */
async function rewritten(bytes: Buffer, cuts: number[]): Promise<string> {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks = [0, ...at, bytes.length].slice(1).map((end, i, ends) => bytes.subarray(i ? ends[i - 1] : 0, end));
  const out: Buffer[] = [];
  for await (const chunk of Readable.from(chunks.filter((c) => c.length)).pipe(new CopyCsvCells(NUMBERS, HEAD)))
    out.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(out).toString('utf8');
}

describe("PostgreSQL's COPY CSV made into the exports' CSV", () => {
  it('writes what csvLine writes, byte for byte, however the bytes are cut into chunks', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(cell, number, cell, number, cell), { maxLength: 20 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        async (rows, cuts) => {
          const expected = HEAD + rows.map((r) => csvLine([...r], NUMBERS)).join('');
          expect(await rewritten(Buffer.from(copyCsv(rows)), cuts)).toBe(expected);
        },
      ),
    );
  });

  it('neutralises and quotes as the exports do, leaving numbers alone', async () => {
    const rows = [
      ['=1+1', '-705', ' padded ', '0', ''],
      ['a;b', null, 'x,"y"', '12', '  @SUM(1)'],
      ['\tTab', '-1', 'two\nlines', null, '-2+3'],
    ];
    expect(await rewritten(Buffer.from(copyCsv(rows)), [])).toBe(
      `${HEAD}'=1+1,-705," padded ",0,\r\n"a;b",,"x,""y""",12,'  @SUM(1)\r\n"'\tTab",-1,"two\nlines",,'-2+3\r\n`,
    );
  });

  it('refuses a stream that ends inside a record', async () => {
    await expect(rewritten(Buffer.from('a,1,b,2,c\nd,3'), [])).rejects.toThrow(/inside a record/);
  });
});
