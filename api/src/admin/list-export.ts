import type { Readable } from 'node:stream';
import { snakeCaseMappers } from 'objection';
import type { Clock } from '../clock';
import type { Db } from '../db/connection';
import { openCursorCsv } from '../db/csv-cursor';
import { csvCell, csvHead } from '../http/csv';
import type { Logger } from '../logger';
import type { AdminResource, Row, WriteActor } from './resource';
import type { AdminService } from './service';
import type { ListQuery } from './schemas/list-query';

/** Rows fetched at a time: each is presented as the list presents it, so batches stay modest. */
const BATCH_ROWS = 1000;
const { parse: camelCased } = snakeCaseMappers();

/** A column as the API's JSON names it (knex's snake_case mapping, undone). */
const fieldOf = (column: string) => Object.keys(camelCased({ [column]: 0 }))[0]!;

/**
 * Every console list as CSV: the list's own query (filters, search, sort, scope and the reader's read scope) read
 * through a database cursor, each row presented for its reader exactly as the list's JSON shows it (secrets are
 * never selected, `present` and `presentTo` rewrite it), its cells formula-safe as finance's are.
 */
export function listExports({
  db,
  admin,
  clock,
  logger,
}: {
  db: Db;
  admin: AdminService;
  clock: Clock;
  logger: Logger;
}) {
  return {
    /** The CSV as a stream, its file name (`<resource>-<date>.csv`) and its row count. */
    async open(
      resource: AdminResource,
      query: ListQuery,
      reader: WriteActor,
    ): Promise<{ filename: string; total: number; body: Readable }> {
      const { filtered, ordered } = admin.listing(resource, query, reader);
      if (!ordered.hasSelects()) ordered.select(`${resource.model.tableName}.*`);
      // The resource's columns, or the query's own (a table's, with what its base query adds: a purchase's refunds).
      let columns: string[] = resource.columns ? [...resource.columns] : [];
      const head = resource.columns
        ? csvHead(columns)
        : (names: string[]) => csvHead((columns = [...new Set(names.map(fieldOf))]));
      const matches = filtered.clone().clearSelect().clearOrder().select(db.raw('1')).toKnexQuery();
      const count = db.count({ n: '*' }).from(matches.as('matches')).toSQL().toNative();
      const rows = ordered.toKnexQuery().toSQL().toNative();
      const { total, body } = await openCursorCsv<Row>(db, {
        count: { sql: count.sql, bindings: count.bindings },
        rows: { sql: rows.sql, bindings: rows.bindings },
        head,
        line: (row) => {
          // As the list's JSON has it: a model built from the row, presented for its reader, then as JSON.
          const record = resource.model.fromDatabaseJson(camelCased(row) as Row) as unknown as Row;
          const shown = JSON.parse(JSON.stringify(admin.shown(resource, record, reader))) as Row;
          return `${columns.map((c) => csvCell(shown[c])).join(',')}\r\n`;
        },
        rowMode: 'objects',
        batchRows: BATCH_ROWS,
        onStopped: (error) =>
          logger.warn({ err: error, resource: resource.name }, 'a list export stopped before its end'),
      });
      const day = clock.now().toISOString().slice(0, 10);
      return { filename: `${resource.name}-${day}.csv`, total, body };
    },
  };
}

export type ListExports = ReturnType<typeof listExports>;
