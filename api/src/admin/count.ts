import type { Knex } from 'knex';
import type { QueryBuilder } from 'objection';
import type { BaseModel } from '../db/base-model';

/** Up to this many matches are counted exactly; past it the planner's estimate is used. */
export const EXACT_COUNT_LIMIT = 10_000;

export interface Total {
  total: number;
  estimated: boolean;
}

/**
 * The total for Content-Range without scanning a million rows: count at most EXACT_COUNT_LIMIT + 1 matches
 * (cheap through the same index the page uses), and when there are more, ask the planner for its estimate.
 */
export async function countMatches(filtered: QueryBuilder<BaseModel>, exact: boolean): Promise<Total> {
  if (exact) return { total: await filtered.clone().resultSize(), estimated: false };
  const knex = filtered.knex();
  const base = filtered.clone().clearSelect().clearOrder().select(knex.raw('1'));
  const capped = base.clone().limit(EXACT_COUNT_LIMIT + 1).toKnexQuery().as('capped');
  const [row] = (await knex.count({ n: '*' }).from(capped)) as { n: number | string }[];
  const counted = Number(row?.n ?? 0);
  if (counted <= EXACT_COUNT_LIMIT) return { total: counted, estimated: false };
  const { sql, bindings } = base.toKnexQuery().toSQL();
  const plan = await knex.raw(`EXPLAIN (FORMAT JSON) ${sql}`, bindings as Knex.RawBinding[]);
  const estimate = Math.round(Number(plan.rows[0]['QUERY PLAN'][0].Plan['Plan Rows']));
  return { total: Math.max(estimate, counted), estimated: true };
}
