import type { ListQuery } from '../../list-query/schemas';
import { cappedCount, countMatches, EXACT_COUNT_LIMIT, totalOf, type Total } from '../lists/count';
import type { AdminResource, Row, WriteActor } from '../resource';
import { pageFromTemplate } from './page-template';
import { type AdminDeps, baseQuery, column, idColumnOf, presentTo } from './rows';

export interface Page {
  rows: Row[];
  total: Total;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** What a search is bound as: its text anywhere in a field. */
const searchPattern = (search: string) => `%${escapeLike(search)}%`;

/**
 * What a list holds for its reader, filtered (for counting) and in its order, every page of it: the console's list
 * and its CSV export read the same rows.
 */
export function listing({ db }: AdminDeps, resource: AdminResource, query: ListQuery, reader?: WriteActor) {
  const filtered = baseQuery(resource, db).modify((q) => {
    if (resource.remove === 'soft') q.whereNull(column(db, resource, 'deletedAt'));
    resource.scope?.(q);
    if (reader) resource.readScope?.(q, reader);
    for (const { field, op, value } of query.conditions) {
      const col = column(db, resource, field);
      if (op === 'in') q.whereIn(col, value as string[]);
      else if (op === 'contains') q.whereRaw('?? @> ARRAY[?]::text[]', [col, value as string]);
      else q.where(col, { eq: '=', gte: '>=', lte: '<=', lt: '<' }[op], value as string);
    }
    if (query.search) {
      const pattern = searchPattern(query.search);
      q.where((w) => {
        for (const field of resource.searchable) w.orWhere(column(db, resource, field), 'ilike', pattern);
      });
    }
  });
  const ordered = filtered.clone().orderBy([
    { column: column(db, resource, query.sort.field), order: query.sort.order },
    { column: column(db, resource, idColumnOf(resource)), order: query.sort.order },
  ]);
  return { filtered, ordered };
}

/** One page of a list, with its total (exact, or capped where counting every match costs too much). */
export async function listPage(
  deps: AdminDeps,
  resource: AdminResource,
  query: ListQuery,
  reader?: WriteActor,
): Promise<Page> {
  if (resource.exactCount) {
    const { filtered, ordered } = listing(deps, resource, query, reader);
    const page = ordered.offset(query.offset).limit(query.limit);
    const [rows, total] = await Promise.all([page.toKnexQuery(), countMatches(filtered, true)]);
    return { rows: (rows as unknown as Row[]).map((r) => presentTo(resource, r, reader)), total };
  }
  // The page and its capped count in one statement: one round trip where most of a list's time goes.
  const withCount = (asked: ListQuery) => {
    const built = listing(deps, resource, asked, reader);
    if (!built.ordered.hasSelects()) built.ordered.select(`${resource.model.tableName}.*`);
    const page = built.ordered.select(deps.db.raw('(?) AS match_count', [cappedCount(built.filtered)]));
    return { filtered: built.filtered, page };
  };
  // Read as plain rows (the answer's JSON): no model instance is built for a row only sent on. A list its reader
  // sees only part of is built for each request; any other is sent as its shape's statement, compiled once.
  const compiled =
    reader && resource.readScope
      ? null
      : await pageFromTemplate(deps.db, resource, query, (q) => withCount(q).page.toKnexQuery().toSQL(), searchPattern);
  let built: ReturnType<typeof withCount> | undefined;
  if (!compiled) built = withCount(query);
  const rows = (compiled ??
    (await built!.page.offset(query.offset).limit(query.limit).toKnexQuery())) as unknown as (Row & {
    matchCount?: number;
  })[];
  const counted = rows[0]?.matchCount;
  // Counting apart (a page past the end) or estimating (past the cap) builds the filter, if not built already.
  const filtered = () => (built ?? withCount(query)).filtered;
  const total =
    counted === undefined
      ? await countMatches(filtered(), false)
      : Number(counted) <= EXACT_COUNT_LIMIT
        ? { total: Number(counted), estimated: false }
        : await totalOf(filtered(), Number(counted));
  return {
    rows: rows.map(({ matchCount: _, ...row }) => presentTo(resource, row, reader)),
    total,
  };
}
