import { isDeepStrictEqual } from 'node:util';
import type { QueryBuilder } from 'objection';
import { recordAudit, type Actor } from '../audit/record';
import type { BaseModel } from '../db/base-model';
import type { Db } from '../db/connection';
import { AppError } from '../shared/errors';
import { cappedCount, countMatches, totalOf, type Total } from './lists/count';
import type { ListQuery } from '../list-query/schemas';
import type { UpdateRequest } from './schemas/write';
import type { AdminResource, Row, Trx, WriteActor, WriteHook } from './resource';

export interface Page {
  rows: Row[];
  total: Total;
}

export interface WriteContext {
  actor: WriteActor;
  requestId: string | null;
}

const auditActor = ({ id, email }: WriteActor): Actor => ({ id, email });

function writeHook(trx: Trx, context: WriteContext): WriteHook {
  return {
    trx,
    actor: context.actor,
    audit: (entry) => recordAudit(trx, { ...entry, actor: auditActor(context.actor), requestId: context.requestId }),
  };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** JSON-comparable form of a value as the API shows it (dates as ISO strings). */
function normalized(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value ?? null));
}

/** `changed` runs after every committed write: the storefront's read caches forget what they held. */
export function adminService({ db, changed = () => {} }: { db: Db; changed?: () => void }) {
  const idColumnOf = (resource: AdminResource) => resource.idColumn ?? 'id';
  const column = (resource: AdminResource, field: string): string => {
    const mapped =
      (resource.sqlColumns && Object.hasOwn(resource.sqlColumns, field) ? resource.sqlColumns[field] : undefined) ??
      field;
    return typeof mapped === 'string' ? mapped : (db.raw(mapped.expression) as unknown as string);
  };
  const present = (resource: AdminResource, row: Row): Row => (resource.present ? resource.present(row) : row);
  /** A row as its reader sees it (without a reader: as any staff member does). */
  const presentTo = (resource: AdminResource, row: Row, reader?: WriteActor): Row => {
    const shown = present(resource, row);
    return reader && resource.presentTo ? resource.presentTo(shown, reader) : shown;
  };
  const committed = (row: Row): Row => {
    changed();
    return row;
  };

  function baseQuery(resource: AdminResource, conn: Db = db): QueryBuilder<BaseModel> {
    const query = resource.baseQuery ? resource.baseQuery(conn) : resource.model.query(conn);
    if (!resource.baseQuery && resource.columns)
      query.select(resource.columns.map((c) => `${resource.model.tableName}.${c}`));
    return query;
  }

  /** A live record: soft-deleted rows and rows outside the resource's scope do not exist for the console. */
  async function findRow(
    resource: AdminResource,
    id: string,
    conn: Db = db,
    lock = false,
    reader?: WriteActor,
  ): Promise<Row | undefined> {
    const query = baseQuery(resource, conn)
      .where(column(resource, idColumnOf(resource)), id)
      .first();
    if (resource.remove === 'soft') query.whereNull(column(resource, 'deletedAt'));
    resource.scope?.(query);
    if (reader) resource.readScope?.(query, reader);
    if (lock) query.forUpdate();
    const row = (await query) as unknown as Row | undefined;
    return row ? (normalized(row) as Row) : undefined;
  }

  /** Unchanged read-only fields may come back (react-admin sends whole records); changed or unknown ones may not. */
  function checkUnwritable(resource: AdminResource, body: Row, writable: ReadonlySet<string>, current: Row): void {
    const errors: Record<string, string> = {};
    for (const [key, value] of Object.entries(body)) {
      if (writable.has(key)) continue;
      if (!Object.hasOwn(current, key)) errors[key] = `is not a field of ${resource.name}`;
      else if (!isDeepStrictEqual(normalized(value), normalized(current[key]))) errors[key] = 'is read-only';
    }
    if (Object.keys(errors).length) {
      const summary = Object.entries(errors)
        .map(([k, m]) => `${k} ${m}`)
        .join('; ');
      throw new AppError('validation-failed', `Invalid request: ${summary}`, errors);
    }
  }

  /** A unique or check violation names its field, so the form shows the message under it. */
  function explainConstraint(resource: AdminResource, error: unknown): never {
    const native = ((error as { nativeError?: unknown }).nativeError ?? error) as {
      code?: string;
      constraint?: string;
    };
    const known = native.constraint ? resource.constraintFields?.[native.constraint] : undefined;
    if (known && native.code === '23505')
      throw new AppError('already-exists', `${known.field} ${known.message}`, { [known.field]: known.message });
    if (known && native.code === '23514')
      throw new AppError('validation-failed', `${known.field} ${known.message}`, { [known.field]: known.message });
    throw error;
  }

  /**
   * What a list holds for its reader, filtered (for counting) and in its order, every page of it: the console's
   * list and its CSV export read the same rows.
   */
  function listing(resource: AdminResource, query: ListQuery, reader?: WriteActor) {
    const filtered = baseQuery(resource).modify((q) => {
      if (resource.remove === 'soft') q.whereNull(column(resource, 'deletedAt'));
      resource.scope?.(q);
      if (reader) resource.readScope?.(q, reader);
      for (const { field, op, value } of query.conditions) {
        const col = column(resource, field);
        if (op === 'in') q.whereIn(col, value as string[]);
        else if (op === 'contains') q.whereRaw('?? @> ARRAY[?]::text[]', [col, value as string]);
        else q.where(col, { eq: '=', gte: '>=', lte: '<=', lt: '<' }[op], value as string);
      }
      if (query.search) {
        const pattern = `%${escapeLike(query.search)}%`;
        q.where((w) => {
          for (const field of resource.searchable) w.orWhere(column(resource, field), 'ilike', pattern);
        });
      }
    });
    const ordered = filtered.clone().orderBy([
      { column: column(resource, query.sort.field), order: query.sort.order },
      { column: column(resource, idColumnOf(resource)), order: query.sort.order },
    ]);
    return { filtered, ordered };
  }

  return {
    listing,
    /** A row as it leaves the server for this reader (`present`, then `presentTo`). */
    shown: (resource: AdminResource, row: Row, reader?: WriteActor): Row => presentTo(resource, row, reader),

    async list(resource: AdminResource, query: ListQuery, reader?: WriteActor): Promise<Page> {
      const { filtered, ordered } = listing(resource, query, reader);
      const page = ordered.offset(query.offset).limit(query.limit);
      if (resource.exactCount) {
        const [rows, total] = await Promise.all([page, countMatches(filtered, true)]);
        return { rows: (rows as unknown as Row[]).map((r) => presentTo(resource, r, reader)), total };
      }
      // The page and its capped count in one statement: one round trip where most of a list's time goes.
      if (!page.hasSelects()) page.select(`${resource.model.tableName}.*`);
      const rows = (await page.select(db.raw('(?) AS match_count', [cappedCount(filtered)]))) as unknown as (Row & {
        matchCount?: number;
      })[];
      const counted = rows[0]?.matchCount;
      const total =
        counted === undefined ? await countMatches(filtered, false) : await totalOf(filtered, Number(counted));
      return {
        rows: rows.map(({ matchCount: _, ...row }) => presentTo(resource, row, reader)),
        total,
      };
    },

    async getOne(resource: AdminResource, id: string, reader?: WriteActor): Promise<Row> {
      const row = await findRow(resource, id, db, false, reader);
      if (!row) throw new AppError('not-found', `No ${resource.name} record with id ${id}.`);
      return presentTo(resource, row, reader);
    },

    /** `input` is the body as the resource's create schema parsed it at the edge. */
    async create(resource: AdminResource, input: Row, context: WriteContext): Promise<Row> {
      if (!resource.create)
        throw new AppError('method-not-allowed', `${resource.name} cannot be created from the console.`);
      return db
        .transaction(async (trx) => {
          const hook = writeHook(trx, context);
          await resource.checkWrite?.(hook, 'create', input, null);
          const values = resource.beforeWrite ? await resource.beforeWrite(hook, input, null) : input;
          const [inserted] = (await trx(resource.model.tableName)
            .insert(serialize(resource, values))
            .returning(idColumnOf(resource))) as Row[];
          const created = (await findRow(resource, String(inserted![idColumnOf(resource)]), trx))!;
          await resource.afterWrite?.(hook, created, null, input);
          await recordAudit(trx, {
            actor: auditActor(context.actor),
            requestId: context.requestId,
            action: 'create',
            resource: resource.name,
            recordId: String(created.id),
            after: present(resource, created),
          });
          return present(resource, created);
        })
        .then(committed, (error) => explainConstraint(resource, error));
    },

    async update(resource: AdminResource, id: string, request: UpdateRequest, context: WriteContext): Promise<Row> {
      if (!resource.update)
        throw new AppError('method-not-allowed', `${resource.name} cannot be changed from the console.`);
      const { body, writable } = request;
      return db
        .transaction(async (trx) => {
          const current = await findRow(resource, id, trx, true);
          if (!current) throw new AppError('not-found', `No ${resource.name} record with id ${id}.`);
          checkUnwritable(resource, body, writable, present(resource, current));
          const shown = present(resource, current);
          // Only what differs is written: sending the record back unchanged writes nothing and logs nothing.
          const changes = Object.fromEntries(
            Object.entries(body).filter(
              ([key, value]) => writable.has(key) && !isDeepStrictEqual(normalized(value), normalized(shown[key])),
            ),
          );
          const input = request.parse(changes);
          if (!Object.keys(input).length) return shown;
          const hook = writeHook(trx, context);
          await resource.checkWrite?.(hook, 'update', input, current);
          const values = resource.beforeWrite ? await resource.beforeWrite(hook, input, current) : input;
          await trx(resource.model.tableName).where(idColumnOf(resource), id).update(serialize(resource, values));
          const updated = (await findRow(resource, id, trx))!;
          await resource.afterWrite?.(hook, updated, current, input);
          await recordAudit(trx, {
            actor: auditActor(context.actor),
            requestId: context.requestId,
            action: 'update',
            resource: resource.name,
            recordId: id,
            before: present(resource, current),
            after: present(resource, updated),
          });
          return present(resource, updated);
        })
        .then(committed, (error) => explainConstraint(resource, error));
    },

    async remove(resource: AdminResource, id: string, context: WriteContext): Promise<Row> {
      if (!resource.remove)
        throw new AppError('method-not-allowed', `${resource.name} cannot be deleted from the console.`);
      return db
        .transaction(async (trx) => {
          const current = await findRow(resource, id, trx, true);
          if (!current || (resource.remove === 'soft' && current.deletedAt))
            throw new AppError('not-found', `No ${resource.name} record with id ${id}.`);
          await resource.checkWrite?.(writeHook(trx, context), 'delete', {}, current);
          for (const guard of resource.deleteGuards ?? []) {
            if (await guard.blocks(trx, id)) throw new AppError(guard.code, guard.message);
          }
          if (resource.remove === 'soft') {
            await trx(resource.model.tableName).where(idColumnOf(resource), id).update({ deletedAt: trx.fn.now() });
          } else {
            await trx(resource.model.tableName).where(idColumnOf(resource), id).delete();
          }
          await recordAudit(trx, {
            actor: auditActor(context.actor),
            requestId: context.requestId,
            action: 'delete',
            resource: resource.name,
            recordId: id,
            before: present(resource, current),
          });
          return present(resource, current);
        })
        .then(committed);
    },
  };
}

/** JSON columns go in as JSON text; everything else as it is. */
function serialize(resource: AdminResource, values: Row): Row {
  const json = new Set(resource.model.jsonAttributes ?? []);
  return Object.fromEntries(
    Object.entries(values).map(([k, v]) => [k, json.has(k) && v !== null ? JSON.stringify(v) : v]),
  );
}

export type AdminService = ReturnType<typeof adminService>;
