/**
 * Whether every order and filter the console offers is served by an index: each list's real query (built by the
 * same code the API lists with) for each sortable field, and for each filter on the default sort, run through
 * EXPLAIN (FORMAT JSON). Rows must come in order from an index: no Sort over a whole table; a Top-N sort is fine
 * only over rows an equality filter found through an index. The benchmark calls it on its million-row database;
 * run alone: `node --import tsx tests/bench/sort-plans.ts` (BENCH_DATABASE_URL or TEST_DATABASE_URL).
 */
import { pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import { createDb, type Db } from '../../api/src/db/connection';
import { ADMIN_RESOURCES } from '../../api/src/admin/resources';
import { listing } from '../../api/src/admin/records/listing';
import { column } from '../../api/src/admin/records/rows';
import type { AdminResource } from '../../api/src/admin/resource';
import { parseListQuery, type FieldKind } from '../../api/src/list-query/schemas';

interface SortPlan {
  resource: string;
  /** `field DIRECTION`. */
  sort: string;
  /** `field=value` when the plan is of a filtered list (on its default sort). */
  filter?: string;
  usesIndex: boolean;
  /** A table the console keeps small (counted exactly): its plans are shown but need no index. */
  small: boolean;
  /** The list's table's rows as the planner last counted them (-1: never counted): a sort of a few is no matter. */
  tableRows: number;
  plan: PlanNode;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Recheck Cond'?: string;
  Plans?: PlanNode[];
  [key: string]: unknown;
}

/** A value of each kind, where the list has no row to take one from (the plan, not the rows, is looked at). */
const SAMPLE: Record<FieldKind, unknown> = {
  id: '00000000-0000-4000-8000-000000000000',
  text: 'someone@example.com',
  enum: 'active',
  number: 1000,
  boolean: true,
  date: '2026-01-01',
  role: 'support',
};

/**
 * A filter on the field with a value the list holds (its first row's), so the planner weighs a real value's
 * frequency: a status every row has, a person with their few rows. A date filter asks for the last year.
 */
const sampleFor = (resource: AdminResource, field: string, row: Record<string, unknown> | undefined): unknown => {
  const kind = resource.filterable[field]!;
  if (kind === 'date') return { [`${field}_gte`]: SAMPLE.date };
  // A role is asked of an array: the sample's, a staff role.
  const held = kind === 'role' ? undefined : row?.[field];
  return { [field]: typeof held === typeof SAMPLE[kind] ? held : SAMPLE[kind] };
};

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

const SORTS = new Set(['Sort', 'Incremental Sort']);
const INDEX_SCANS = new Set(['Index Scan', 'Index Only Scan', 'Bitmap Index Scan']);
const snake = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * In order from an index: no sort over rows no index condition narrowed, no whole scan of the list's own table; an
 * equality filter on an id or a text must itself be an index condition (a walk down the sort's index filtering
 * each row would read the whole table for a rare value). A sort of rows an index gives in the sort field's order,
 * which only orders ties by id, is fine where ties are few (`fewTies`: instants, emails, names), not on a status or
 * an amount.
 */
function servedByIndex(
  plan: PlanNode,
  table: string,
  sort: { column: string; fewTies: boolean },
  indexColumns: Map<string, string[]>,
  filter?: { field: string; kind: FieldKind },
): boolean {
  const all = nodes(plan);
  const [, sortName] = sort.column.split('.');
  // A plan of one table names its columns bare.
  const sortsFirstBy = (n: PlanNode) => {
    const key = String((n['Sort Key'] as string[] | undefined)?.[0] ?? '').split(' ')[0]!;
    return key === sort.column || key === sortName;
  };
  const tiesOnly = (n: PlanNode) =>
    sort.fewTies &&
    sortsFirstBy(n) &&
    nodes(n).some(
      (scan) =>
        (scan['Node Type'] === 'Index Scan' || scan['Node Type'] === 'Index Only Scan') &&
        scan['Relation Name'] === table &&
        indexColumns.get(scan['Index Name'] ?? '')?.includes(sortName ?? ''),
    );
  if (all.some((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === table)) return false;
  const narrowedBy = (scans: PlanNode[], field: string) =>
    scans.some(
      (n) =>
        INDEX_SCANS.has(n['Node Type']) &&
        [n['Index Cond'], n['Recheck Cond']].some((c) => c?.includes(snake(field)) || c?.includes(field)),
    );
  // A sort is fine over rows an index condition picked from the list's table (a filter's, or none of its rows: a
  // lookup per row), never over a whole scan of it.
  const wholeScanOfTable = (n: PlanNode) =>
    n['Relation Name'] === table && !n['Index Cond'] && !n['Recheck Cond'] && n['Node Type'] !== 'Bitmap Index Scan';
  for (const sorting of all.filter((n) => SORTS.has(n['Node Type']) && !tiesOnly(n))) {
    const below = nodes(sorting).slice(1);
    if (below.some((n) => n['Node Type'] === 'Seq Scan' || wholeScanOfTable(n))) return false;
  }
  // Unless the rows come in order with no sort but of ties: the planner walks the sort's index only when it expects
  // the value often (one merchant account holding every charge, one of a course's twenty lessons).
  const walksInOrder = !all.some((n) => SORTS.has(n['Node Type']) && !tiesOnly(n));
  if (filter && (filter.kind === 'id' || filter.kind === 'text') && !walksInOrder && !narrowedBy(all, filter.field))
    return false;
  return true;
}

async function explain(db: Db, query: Knex.QueryBuilder): Promise<PlanNode> {
  const { sql, bindings } = query.toSQL();
  const { rows } = await db.raw(`EXPLAIN (FORMAT JSON) ${sql}`, bindings as Knex.RawBinding[]);
  return rows[0]['QUERY PLAN'][0].Plan as PlanNode;
}

/** `table.column` as a plan names it, for a field that is a plain column; an expression never has few ties. */
function sortColumn(db: Db, resource: AdminResource, field: string): string {
  const mapped = column(db, resource, field);
  if (typeof mapped !== 'string') return '';
  const [table, name] = mapped.includes('.') ? mapped.split('.') : [resource.model.tableName, mapped];
  return `${snake(table!)}.${snake(name!)}`;
}

/** Each sortable field (the default one in its own direction, others newest or largest first), and each filter. */
function listsToPlan(resource: AdminResource) {
  const [defaultField, defaultOrder] = resource.defaultSort;
  const sorts = resource.sortable.map((field) => ({
    sort: [field, field === defaultField ? defaultOrder : 'DESC'] as const,
    filter: undefined as { field: string; kind: FieldKind } | undefined,
  }));
  const filters = Object.entries(resource.filterable)
    .filter(([field]) => field !== (resource.idColumn ?? 'id'))
    .map(([field, kind]) => ({ sort: resource.defaultSort, filter: { field, kind } }));
  return [...sorts, ...filters];
}

/** Columns whose values seldom repeat: instants and free texts (not a status, a kind, a count or an amount). */
async function fewTiesColumns(db: Db): Promise<Set<string>> {
  const { rows } = (await db.raw(
    `SELECT table_name || '.' || column_name AS col FROM information_schema.columns
      WHERE table_schema = current_schema()
        AND (data_type LIKE 'timestamp%' OR data_type IN ('text', 'character varying', 'date'))`,
  )) as { rows: { col: string }[] };
  return new Set(rows.map((r) => r.col));
}

/** Each index's columns, in order. */
async function columnsOfIndexes(db: Db): Promise<Map<string, string[]>> {
  const { rows } = (await db.raw(
    `SELECT i.relname AS name, array_agg(a.attname ORDER BY k.n) AS columns
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
       CROSS JOIN LATERAL unnest(x.indkey) WITH ORDINALITY AS k(attnum, n)
       JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum
      GROUP BY i.relname`,
  )) as { rows: { name: string; columns: string[] }[] };
  return new Map(rows.map((r) => [r.name, r.columns]));
}

export async function sortPlans(db: Db): Promise<SortPlan[]> {
  const plans: SortPlan[] = [];
  const fewTies = await fewTiesColumns(db);
  const indexColumns = await columnsOfIndexes(db);
  const { rows: counted } = (await db.raw(
    `SELECT relname AS name, reltuples::bigint AS rows FROM pg_class WHERE relkind = 'r' AND relnamespace = current_schema()::regnamespace`,
  )) as { rows: { name: string; rows: number }[] };
  const tableRows = new Map(counted.map((t) => [t.name, Number(t.rows)]));
  for (const resource of ADMIN_RESOURCES) {
    const deps = { db, changed: () => {} };
    const [first] = (await listing(deps, resource, parseListQuery(resource, {})).ordered.limit(1)) as unknown as Record<
      string,
      unknown
    >[];
    for (const { sort, filter } of listsToPlan(resource)) {
      const query = parseListQuery(resource, {
        sort: JSON.stringify(sort),
        range: JSON.stringify([0, 24]),
        ...(filter ? { filter: JSON.stringify(sampleFor(resource, filter.field, first)) } : {}),
      });
      const { ordered } = listing(deps, resource, query);
      const plan = await explain(db, ordered.offset(0).limit(25).toKnexQuery());
      const kind = resource.filterable[sort[0]];
      const column = sortColumn(db, resource, sort[0]);
      const sorted = { column, fewTies: fewTies.has(column) && kind !== 'enum' && kind !== 'boolean' };
      plans.push({
        resource: resource.name,
        sort: `${sort[0]} ${sort[1]}`,
        ...(filter ? { filter: `${filter.field} (${filter.kind})` } : {}),
        usesIndex: servedByIndex(
          plan,
          snake(resource.model.tableName),
          sorted,
          indexColumns,
          // Named as the plan names it: the column behind the field.
          filter && { ...filter, field: sortColumn(db, resource, filter.field).split('.')[1] || filter.field },
        ),
        small: Boolean(resource.exactCount),
        tableRows: tableRows.get(snake(resource.model.tableName)) ?? -1,
        plan,
      });
    }
  }
  return plans;
}

/** The plan's shape in one line: `Limit > Nested Loop > Index Scan Backward(purchases_created_at)`. */
export function planInBrief(plan: PlanNode): string {
  const name = (n: PlanNode) =>
    `${n['Node Type']}${n['Scan Direction'] === 'Backward' ? ' Backward' : ''}${n['Index Name'] ? `(${n['Index Name']})` : n['Relation Name'] ? `(${n['Relation Name']})` : ''}`;
  const kids = plan.Plans ?? [];
  if (!kids.length) return name(plan);
  const inner = kids.map(planInBrief);
  return `${name(plan)} > ${inner.length === 1 ? inner[0] : `[${inner.join(', ')}]`}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('set BENCH_DATABASE_URL or TEST_DATABASE_URL to a migrated database');
  const db = createDb(url, { max: 1 });
  const plans = await sortPlans(db).finally(() => db.destroy());
  // A table of under ten thousand rows is sorted in a moment whatever the plan (and an empty one is read whole).
  const few = (p: SortPlan) => p.small || (p.tableRows >= 0 && p.tableRows < 10_000);
  for (const p of plans) {
    const mark = p.usesIndex ? 'index ' : few(p) ? 'small ' : 'SORTED';
    process.stdout.write(
      `${mark} ${p.resource} ${p.sort}${p.filter ? ` where ${p.filter}` : ''}: ${planInBrief(p.plan)}\n`,
    );
  }
  const missing = plans.filter((p) => !p.usesIndex && !few(p));
  process.stdout.write(
    `${plans.length} plans, ${missing.length} not served by an index on a table of 10,000 rows or more\n`,
  );
  process.exitCode = missing.length ? 1 : 0;
}
