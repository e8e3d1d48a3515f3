import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { pagedCsv } from '../../api/src/http/paged-csv';
import { instant, number, text as textColumn } from '../../api/src/http/csv-columns';

describe('pagedCsv', () => {
  it('reads every page in order, once each as the file is taken, with formula-safe cells', async () => {
    const all = Array.from({ length: 1201 }, (_, i) => ({
      n: i,
      name: i % 2 ? `=cmd${i}` : `row ${i}`,
      at: new Date(i),
    }));
    const asked: number[] = [];
    const { total, body } = await pagedCsv(
      [number('N', 'n'), textColumn('Name', 'name'), instant('At', 'at')],
      async (offset, limit) => {
        asked.push(offset);
        return { rows: all.slice(offset, offset + limit), total: all.length };
      },
    );
    expect(total).toBe(1201);
    expect(asked).toEqual([0]); // the first page before the answer starts; the rest as it is read
    let text = '';
    for await (const chunk of body) text += String(chunk);
    expect(asked).toEqual([0, 500, 1000]);
    const rows = parse(text, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(1201);
    expect(rows[1]).toEqual({ N: '1', Name: "'=cmd1", At: '1970-01-01T00:00:00.001Z' });
    expect(rows.map((r) => Number(r.N))).toEqual(all.map((r) => r.n));
  });
});
