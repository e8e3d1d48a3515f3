import type { QueryBuilder } from 'objection';
import type { BaseModel } from '../../db/base-model';
import type { Db } from '../../db/connection';
import type { AdminResource, Row, WriteActor } from '../resource';

/** What the console's reads and writes of resources are built from (passed by the composition root). */
export interface AdminDeps {
  db: Db;
  /** Runs after every committed write: the storefront's read caches forget what they held. */
  changed: () => void;
}

export const idColumnOf = (resource: AdminResource) => resource.idColumn ?? 'id';

/** The SQL column (or expression) behind a field the console names. */
export function column(db: Db, resource: AdminResource, field: string): string {
  const mapped =
    (resource.sqlColumns && Object.hasOwn(resource.sqlColumns, field) ? resource.sqlColumns[field] : undefined) ??
    field;
  return typeof mapped === 'string' ? mapped : (db.raw(mapped.expression) as unknown as string);
}

/** JSON-comparable form of a value as the API shows it (dates as ISO strings). */
export function normalized(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value ?? null));
}

export const present = (resource: AdminResource, row: Row): Row => (resource.present ? resource.present(row) : row);

/** A row as its reader sees it (without a reader: as any staff member does). */
export function presentTo(resource: AdminResource, row: Row, reader?: WriteActor): Row {
  const shown = present(resource, row);
  return reader && resource.presentTo ? resource.presentTo(shown, reader) : shown;
}

export function baseQuery(resource: AdminResource, conn: Db): QueryBuilder<BaseModel> {
  const query = resource.baseQuery ? resource.baseQuery(conn) : resource.model.query(conn);
  if (!resource.baseQuery && resource.columns)
    query.select(resource.columns.map((c) => `${resource.model.tableName}.${c}`));
  return query;
}

/** A live record: soft-deleted rows and rows outside the resource's scope do not exist for the console. */
export async function findRow(
  resource: AdminResource,
  id: string,
  conn: Db,
  lock = false,
  reader?: WriteActor,
): Promise<Row | undefined> {
  const query = baseQuery(resource, conn)
    .where(column(conn, resource, idColumnOf(resource)), id)
    .first();
  if (resource.remove === 'soft') query.whereNull(column(conn, resource, 'deletedAt'));
  resource.scope?.(query);
  if (reader) resource.readScope?.(query, reader);
  if (lock) query.forUpdate();
  const row = (await query) as unknown as Row | undefined;
  return row ? (normalized(row) as Row) : undefined;
}
