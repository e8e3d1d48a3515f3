import type { Knex } from 'knex';
import type { AnyQueryBuilder, QueryBuilder } from 'objection';
import type { z } from 'zod';
import type { BaseModel } from '../db/base-model';
import type { CsvColumn } from '../http/csv-columns';
import type { ErrorCode } from '../shared/errors';
import type { Role } from '../shared/roles';
import type { AuditAction } from '../shared/audit-actions';
import type { ListableResource } from '../list-query/schemas';

export type Row = Record<string, unknown>;
export type Trx = Knex.Transaction;

/** A referenced record read beside each exported row, by a join (never a query per row). */
export interface ExportLookup {
  /** The field holding the referenced record's id: the row's, or one an earlier lookup read. */
  from: string;
  /** The referenced table, found by its `id`. */
  table: string;
  /** Each field the export reads (its name in the export's row → the referenced table's column). */
  fields: Record<string, string>;
}

/** A list's CSV export: the list's columns as people read them, and the records it names read beside each row. */
export interface ListExport {
  lookups?: readonly ExportLookup[];
  columns: readonly CsvColumn[];
}

/** Refuses a delete that would break history, with a code that says why (answered as 409). */
export interface DeleteGuard {
  code: ErrorCode;
  message: string;
  /** True when the record is in use in a way that forbids deleting it. */
  blocks(trx: Trx, id: string): Promise<boolean>;
}

/**
 * One console resource: what it reads, who may read and write it, and exactly which fields may be sorted,
 * filtered, searched and written. Everything not listed is refused with a 400.
 */
export interface AdminResource extends ListableResource {
  model: typeof BaseModel;
  /** Roles that may read it (admins always may). */
  read: readonly Role[];
  /** Roles that may create, update and delete (admins always may). Defaults to support. */
  write?: readonly Role[];
  /** The columns returned; secrets are never selected. All columns when absent. */
  columns?: readonly string[];
  /** The column `/:id` matches, when it is not the model's primary key. */
  idColumn?: string;
  /** How `/:id` is read, when ids are neither uuids nor numbers (a certificate's 12 characters). */
  idParam?: z.ZodType<{ id: string }>;
  /** A different base query (a view over several tables); `columns` then names its output. */
  baseQuery?: (db: Knex) => QueryBuilder<BaseModel>;
  /** Field → SQL column or expression, for fields that are not plain columns of the model's table. */
  sqlColumns?: Record<string, string | { expression: string }>;
  /** Refuses a write this actor may not make (beyond the role check), e.g. role changes by non-admins. */
  checkWrite?: (
    hook: WriteHook,
    operation: 'create' | 'update' | 'delete',
    input: Row,
    current: Row | null,
  ) => Promise<void>;
  /** Narrows what exists at all for the console (lists, reads and writes), e.g. links to deleted content. */
  scope?: (query: AnyQueryBuilder) => void;
  /** Rewrites each row before it leaves the server (e.g. to hide secrets inside a text). */
  present?: (row: Row) => Row;
  /** What a reader may see of the rows (lists and reads, not writes): e.g. contributors, others' drafts not at all. */
  readScope?: (query: AnyQueryBuilder, reader: WriteActor) => void;
  /** Rewrites a row for its reader after `present`, e.g. without the body of another author's lesson. */
  presentTo?: (row: Row, reader: WriteActor) => Row;
  /** Writable fields on create (a strict object schema); absent: no create. */
  create?: z.ZodType<Row>;
  /** Writable fields on update (a strict object schema, all optional); absent: no update. */
  update?: z.ZodType<Row>;
  /** Delete: 'hard' removes the row, 'soft' sets deletedAt; absent: no delete. */
  remove?: 'hard' | 'soft';
  deleteGuards?: readonly DeleteGuard[];
  /** A unique or check constraint → the field it is about and what to say, so the form shows it there. */
  constraintFields?: Record<string, { field: string; message: string }>;
  /** Runs in the write's transaction before insert/update, with the parsed input (and the current row). */
  beforeWrite?: (hook: WriteHook, input: Row, current: Row | null) => Promise<Row>;
  /** Runs in the write's transaction after insert/update, with the new row, the old one and the parsed input. */
  afterWrite?: (hook: WriteHook, row: Row, previous: Row | null, input: Row) => Promise<void>;
  /** Counts exactly at any size (small tables); otherwise large counts are estimated. */
  exactCount?: boolean;
  /** What the list's CSV export holds: the list's columns, readable (names rather than ids, money, instants). */
  export: ListExport;
}

export interface WriteActor {
  id: string;
  email: string;
  roles: readonly Role[];
}

/** What a write's hooks get: its transaction, who is writing, and a way to audit side effects in it. */
export interface WriteHook {
  trx: Trx;
  actor: WriteActor;
  audit(entry: {
    action: AuditAction;
    resource: string;
    recordId: string | null;
    before?: object | null;
    after?: object | null;
  }): Promise<void>;
}

export function defineResource<R extends AdminResource>(resource: R): R {
  return resource;
}
