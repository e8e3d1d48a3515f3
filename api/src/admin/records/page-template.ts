import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { knexSnakeCaseMappers } from 'objection';
import type { Condition, ListQuery } from '../../list-query/schemas';
import type { AdminResource, Row } from '../resource';

/**
 * A list page's statement compiled once per shape (building and compiling the query cost a console request more
 * than anything else it does): the resource, its sort, which fields are filtered how (and how many values
 * a list filter has), whether it is searched. The request's values are then bound in their places.
 *
 * A shape is compiled with stand-ins for the request's values and kept only when every other binding is a number (a
 * constant of the definition, as the count's cap; a clock's value would be a date) and every placeholder is a
 * binding. Anything else, and a reader-scoped list, is built per request as before.
 */

type Scalar = string | number | boolean | Date;

/** Unlike any value a request sends: this process's own. */
const STAND_IN = `\u0001list-value-${randomUUID()}-`;

/** Shapes kept at most: beyond that a page is built per request. */
const MOST_SHAPES = 500;

const mappers = knexSnakeCaseMappers();

interface Template {
  sql: string;
  /** For each binding: the request value's index, or a constant of the definition. */
  bindings: ({ value: number; pattern?: true } | { constant: number })[];
}

const templates = new Map<string, Template | null>();

const isScalar = (value: unknown): value is Scalar =>
  typeof value === 'string' ||
  typeof value === 'number' ||
  typeof value === 'boolean' ||
  (value instanceof Date && !Number.isNaN(value.getTime()));

/** The request's values in the order the stand-ins take them, or null when one is not a plain value. */
function valuesOf(query: ListQuery): Scalar[] | null {
  const values: Scalar[] = [];
  for (const { value } of query.conditions) {
    for (const one of Array.isArray(value) ? value : [value]) {
      if (!isScalar(one)) return null;
      values.push(one);
    }
  }
  if (query.search !== undefined) values.push(query.search);
  return values;
}

const shapeOf = (resource: AdminResource, query: ListQuery) =>
  JSON.stringify([
    resource.name,
    query.sort,
    query.conditions.map(({ field, op, value }) => [field, op, Array.isArray(value) ? value.length : 1]),
    query.search !== undefined,
  ]);

/** The query with stand-ins for its values (search: its pattern's place). */
function standInQuery(query: ListQuery): ListQuery {
  let n = 0;
  const next = () => `${STAND_IN}${n++}`;
  const conditions: Condition[] = query.conditions.map((c) => ({
    ...c,
    value: Array.isArray(c.value) ? c.value.map(next) : next(),
  })) as Condition[];
  return { ...query, conditions, ...(query.search !== undefined && { search: next() }) };
}

/** The compiled page of a query with stand-ins as a template: where each binding comes from. */
function templateOf(compiled: Knex.Sql, pattern: (search: string) => string): Template | null {
  const placeholders = compiled.sql.match(/\?\??/g) ?? [];
  if (placeholders.some((p) => p === '??') || placeholders.length !== compiled.bindings.length) return null;
  const bindings: Template['bindings'] = [];
  for (const binding of compiled.bindings) {
    if (typeof binding === 'number') {
      bindings.push({ constant: binding });
      continue;
    }
    const at = typeof binding === 'string' ? binding.indexOf(STAND_IN) : -1;
    if (at === -1) return null;
    const index = Number.parseInt((binding as string).slice(at + STAND_IN.length), 10);
    const standIn = `${STAND_IN}${index}`;
    if (binding === standIn) bindings.push({ value: index });
    // The search is bound as its pattern.
    else if (binding === pattern(standIn)) bindings.push({ value: index, pattern: true });
    else return null;
  }
  return { sql: compiled.sql, bindings };
}

/**
 * One page's rows through its shape's template, or null when the shape has none (the caller builds it). `compile`
 * gives a query's page statement without offset and limit; `pattern` turns a search into its bound value.
 */
export async function pageFromTemplate(
  db: Knex,
  resource: AdminResource,
  query: ListQuery,
  compile: (query: ListQuery) => Knex.Sql,
  pattern: (search: string) => string,
): Promise<Row[] | null> {
  const values = valuesOf(query);
  if (!values) return null;
  const shape = shapeOf(resource, query);
  let template = templates.get(shape);
  if (template === undefined) {
    if (templates.size >= MOST_SHAPES) return null;
    const standIns = standInQuery(query);
    template = templateOf(compile(standIns), pattern);
    templates.set(shape, template);
  }
  if (!template) return null;
  const bound = template.bindings.map((b) =>
    'constant' in b ? b.constant : b.pattern ? pattern(String(values[b.value])) : values[b.value]!,
  );
  const { rows } = (await db.raw(`${template.sql} limit ? offset ?`, [...bound, query.limit, query.offset])) as {
    rows: Record<string, unknown>[];
  };
  return mappers.postProcessResponse(rows) as Row[];
}
