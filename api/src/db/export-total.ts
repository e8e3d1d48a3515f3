import type pg from 'pg';
import type { Statement } from './csv-cursor';

/**
 * What an export's count statement says of its rows. With `estimate`, the statement counts at most `cap + 1` rows
 * (cheap through the index the list reads by) and past the cap the planner's estimate of `matches` is the total, as a
 * list's page does: a million rows are announced in milliseconds, not after counting them all.
 */
export interface ExportCount extends Statement {
  estimate?: { cap: number; matches: Statement };
}

export interface ExportTotal {
  total: number;
  /** The total is the planner's estimate (more than `cap` rows): a progress bar's, not a promise. */
  estimated: boolean;
}

/** The total from the count statement's number, on the export's own connection (its snapshot). */
export async function exportTotal(connection: pg.Client, count: ExportCount, counted: number): Promise<ExportTotal> {
  if (!count.estimate || counted <= count.estimate.cap) return { total: counted, estimated: false };
  const { matches } = count.estimate;
  const { rows } = await connection.query<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
    `EXPLAIN (FORMAT JSON) ${matches.sql}`,
    matches.bindings as unknown[],
  );
  const estimate = Math.round(Number(rows[0]!['QUERY PLAN'][0].Plan['Plan Rows']));
  return { total: Math.max(estimate, counted), estimated: true };
}
