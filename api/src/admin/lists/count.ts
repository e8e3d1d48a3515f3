import type { Knex } from 'knex';
import type { QueryBuilder } from 'objection';
import type { BaseModel } from '../../db/base-model';

/** Up to this many matches are counted exactly; past it the planner's estimate is used. */
export const EXACT_COUNT_LIMIT = 10_000;

export interface Total {
  total: number;
  estimated: boolean;
}

/** Counts at most EXACT_COUNT_LIMIT + 1 matches, through the same index the page uses: a query to run or embed. */
export function cappedCount(filtered: QueryBuilder<BaseModel>): Knex.QueryBuilder {
  const knex = filtered.knex();
  const capped = matchesOnly(filtered)
    .limit(EXACT_COUNT_LIMIT + 1)
    .toKnexQuery()
    .as('capped');
  return knex.count({ n: '*' }).from(capped);
}

const matchesOnly = (filtered: QueryBuilder<BaseModel>) =>
  filtered.clone().clearSelect().clearOrder().select(filtered.knex().raw('1'));

/** The total from a capped count: exact up to the limit; past it, the planner's estimate. */
export async function totalOf(filtered: QueryBuilder<BaseModel>, counted: number): Promise<Total> {
  if (counted <= EXACT_COUNT_LIMIT) return { total: counted, estimated: false };
  const { sql, bindings } = matchesOnly(filtered).toKnexQuery().toSQL();
  const plan = await filtered.knex().raw(`EXPLAIN (FORMAT JSON) ${sql}`, bindings as Knex.RawBinding[]);
  const estimate = Math.round(Number(plan.rows[0]['QUERY PLAN'][0].Plan['Plan Rows']));
  return { total: Math.max(estimate, counted), estimated: true };
}

/**
 * The total for Content-Range without scanning a million rows: count at most EXACT_COUNT_LIMIT + 1 matches
 * (cheap through the same index the page uses), and when there are more, ask the planner for its estimate.
 */
export async function countMatches(filtered: QueryBuilder<BaseModel>, exact: boolean): Promise<Total> {
  if (exact) return { total: await filtered.clone().resultSize(), estimated: false };
  const [row] = (await cappedCount(filtered)) as { n: number | string }[];
  return totalOf(filtered, Number(row?.n ?? 0));
}
