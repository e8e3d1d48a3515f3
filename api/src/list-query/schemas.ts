import { z } from 'zod';
import { AppError } from '../shared/errors';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../http/json-depth';
import { isUuid } from '../shared/uuid';

export type FieldKind = 'id' | 'text' | 'enum' | 'number' | 'date' | 'boolean' | 'role';

export interface ListableResource {
  name: string;
  /** Fields that `filter` may name, with their kind (ids and enums match exactly, text too). */
  filterable: Record<string, FieldKind>;
  sortable: readonly string[];
  /** Columns `q` searches, case-insensitively. */
  searchable: readonly string[];
  defaultSort: readonly [string, 'ASC' | 'DESC'];
}

export const MAX_PAGE_SIZE = 500;
const DEFAULT_PAGE_SIZE = 25;

export interface Condition {
  field: string;
  op: 'eq' | 'in' | 'gte' | 'lte' | 'lt' | 'contains';
  value: unknown;
}

export interface ListQuery {
  sort: { field: string; order: 'asc' | 'desc' };
  offset: number;
  limit: number;
  conditions: Condition[];
  search?: string;
}

const SortParam = z.tuple([z.string(), z.enum(['ASC', 'DESC', 'asc', 'desc'])]);
const RangeParam = z
  .tuple([z.number().int().min(0), z.number().int().min(0)])
  .refine(([start, end]) => end >= start, 'the end of the range comes before its start')
  .refine(([start, end]) => end - start + 1 <= MAX_PAGE_SIZE, `at most ${MAX_PAGE_SIZE} rows per page`);
/**
 * A plain object, kept as JSON.parse made it: a record schema would copy it into a fresh object, where a
 * `__proto__` key sets the copy's prototype instead of becoming a field (and so would be silently ignored).
 */
const FilterParam = z.custom<Record<string, unknown>>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
  'must be a JSON object',
);

function jsonParam<S extends z.ZodType>(name: string, raw: unknown, schema: S): z.infer<S> | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') throw invalid(name, 'must be given once');
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw invalid(name, 'is not valid JSON');
  }
  if (nestsDeeperThan(value)) throw invalid(name, `nests more than ${MAX_JSON_DEPTH} levels deep`);
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalid(name, parsed.error.issues[0]?.message ?? 'has the wrong shape');
  return parsed.data;
}

function invalid(param: string, message: string): AppError {
  return new AppError('validation-failed', `${param} ${message}`, { [param]: message });
}

function checkValue(field: string, kind: FieldKind, value: unknown): unknown {
  const fail = (what: string) => invalid('filter', `${field} must be ${what}`);
  switch (kind) {
    case 'id':
      if (typeof value !== 'string' || !isUuid(value)) throw fail('an id');
      return value;
    case 'text':
    case 'enum':
    case 'role':
      if (typeof value !== 'string' || value.length > 200) throw fail('a string');
      return value;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw fail('a number');
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') throw fail('true or false');
      return value;
    case 'date':
      if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) throw fail('a date');
      return new Date(value);
  }
}

/** Reads ra-data-simple-rest's `sort`, `range` and `filter` against the resource's explicit field lists. */
export function parseListQuery(resource: ListableResource, query: Record<string, unknown>): ListQuery {
  const [sortField, sortOrder] = jsonParam('sort', query.sort, SortParam) ?? resource.defaultSort;
  if (!resource.sortable.includes(sortField)) {
    throw invalid('sort', `cannot sort ${resource.name} by "${sortField}"; sortable: ${resource.sortable.join(', ')}`);
  }
  const [start, end] = jsonParam('range', query.range, RangeParam) ?? [0, DEFAULT_PAGE_SIZE - 1];
  const filter = jsonParam('filter', query.filter, FilterParam) ?? {};

  const conditions: Condition[] = [];
  let search: string | undefined;
  for (const [key, value] of Object.entries(filter)) {
    if (key === 'q') {
      if (typeof value !== 'string' || value.length > 200) throw invalid('filter', 'q must be a short string');
      if (!resource.searchable.length) throw invalid('filter', `${resource.name} has no text search`);
      if (value.trim()) search = value.trim();
      continue;
    }
    const bound = /^(.+)_(gte|lte)$/.exec(key);
    const field = bound ? bound[1]! : key;
    // Own keys only: `valueOf` or `constructor` must not find Object.prototype's.
    const kind = Object.hasOwn(resource.filterable, field) ? resource.filterable[field] : undefined;
    if (!kind) {
      throw invalid(
        'filter',
        `cannot filter ${resource.name} by "${key}"; filterable: ${Object.keys(resource.filterable).join(', ')}`,
      );
    }
    if (bound) {
      if (kind !== 'number' && kind !== 'date') throw invalid('filter', `${field} has no range filter`);
      const checked = checkValue(field, kind, value);
      if (kind === 'date' && bound[2] === 'lte') {
        // "Up to" a day includes that whole day; up to an instant includes its whole millisecond (the
        // database keeps microseconds). Both become an exclusive bound, which the index can use.
        const dayOnly = /^\d{4}-\d{2}-\d{2}$/.test(value as string);
        conditions.push({ field, op: 'lt', value: new Date((checked as Date).getTime() + (dayOnly ? 86_400_000 : 1)) });
      } else {
        conditions.push({ field, op: bound[2] as 'gte' | 'lte', value: checked });
      }
    } else if (Array.isArray(value)) {
      if (value.length > MAX_PAGE_SIZE) throw invalid('filter', `at most ${MAX_PAGE_SIZE} values for ${field}`);
      conditions.push({ field, op: 'in', value: value.map((v) => checkValue(field, kind, v)) });
    } else {
      conditions.push({ field, op: kind === 'role' ? 'contains' : 'eq', value: checkValue(field, kind, value) });
    }
  }

  return {
    sort: { field: sortField, order: sortOrder.toLowerCase() as 'asc' | 'desc' },
    offset: start,
    limit: end - start + 1,
    conditions,
    search,
  };
}
