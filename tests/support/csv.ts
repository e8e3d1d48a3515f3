import { parse } from 'csv-parse/sync';
import request from 'supertest';
import type { testApp } from './app';
import { as, type SignedIn } from './auth';

/**
 * A console list's CSV export as its reader gets it (GET /api/admin/<resource>/export.csv), the text whole in
 * `body`, byte-order mark included; `query` holds the list's filter, sort … as JSON values.
 */
export const listExport = (
  app: ReturnType<typeof testApp>,
  who: SignedIn,
  resource: string,
  query: Record<string, unknown> = {},
) =>
  as(
    who,
    request(app)
      .get(`/api/admin/${resource}/export.csv`)
      .query(Object.fromEntries(Object.entries(query).map(([k, v]) => [k, JSON.stringify(v)]))),
  )
    .buffer(true)
    .parse((res, done) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => done(null, text));
    });

/** A CSV's records: the header first (its byte-order mark taken off). */
export const csvRecords = (text: string): string[][] =>
  parse(text.replace(/^\uFEFF/, ''), { relax_column_count: false });

/** Every record as an object keyed by the header. */
export function csvRows(text: string): Record<string, string>[] {
  const [head, ...rows] = csvRecords(text);
  return rows.map((row) => Object.fromEntries(head!.map((h, i) => [h, row[i]!])));
}
