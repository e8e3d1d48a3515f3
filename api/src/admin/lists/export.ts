import type { Readable } from 'node:stream';
import type { Knex } from 'knex';
import { snakeCaseMappers } from 'objection';
import type { Clock } from '../../clock';
import type { Db } from '../../db/connection';
import { openCopyStream } from '../../db/copy-csv';
import { CopyCsvCells } from '../../db/copy-csv-cells';
import { openCursorCsv, type Statement } from '../../db/csv-cursor';
import type { ExportCount } from '../../db/export-total';
import { inlineBindings } from '../../db/inline-bindings';
import { csvHead } from '../../http/csv';
import { csvRowLine, headersOf } from '../../http/csv-columns';
import type { Logger } from '../../logger';
import type { AdminResource, Row, WriteActor } from '../resource';
import type { AdminService } from '../records/service';
import type { ListQuery } from '../../list-query/schemas';
import { EXACT_COUNT_LIMIT } from './count';
import { CopyTextRows } from './copy-text-rows';
import { rowValues } from './row-values';
import { prepareSqlCells, sqlCells } from './sql-cells';

/**
 * Above this many rows an export reads its list in the order an index gives rather than sorting it first: its rows
 * start at once, and a sort of a huge list (spilled to disk) does not hold them back. Below it the planner may sort,
 * and does when that is cheaper: with PostgreSQL writing the CSV, hash joins and one sort cost far less than a
 * lookup per row in each joined table and a heap read per row in the index's order. Purchases on a busy machine, the
 * whole export / its first row: 200,000 rows in 1.5 s / 0.6 s rather than 3 s / 0.2 s; 500,000 rows in 6.5 s / 2 s
 * rather than 16 s / 0.7 s. The header (and X-Total-Rows) leaves at once either way.
 */
const SORTED_IN_FULL_UP_TO = 2_000_000;

/** Rows fetched at a time, for the lists whose rows are rewritten for their reader (each through its model). */
const BATCH_ROWS = 1000;
const { parse: camelCased } = snakeCaseMappers();

/** The row's own column a lookup starts from (qualified: the list's query may join tables with the same names). */
function sourceColumn(db: Db, resource: AdminResource, field: string): Knex.Raw {
  const mapped = resource.sqlColumns && Object.hasOwn(resource.sqlColumns, field) ? resource.sqlColumns[field] : null;
  if (mapped && typeof mapped !== 'string') return db.raw(mapped.expression);
  return db.raw('??', [mapped ?? `${resource.model.tableName}.${field}`]);
}

/**
 * Each lookup as a LEFT JOIN LATERAL of its table by id, its fields under their export names (which no column of
 * the list's query has, so its filters stay unambiguous). PostgreSQL flattens these into plain joins: one pass with
 * hash joins for the whole export, not a query per row.
 */
function joinLookups(db: Db, resource: AdminResource, join: (lateral: Knex.Raw) => void): string[] {
  const read = new Map<string, string>(); // a field a lookup read → its lateral's alias
  resource.export.lookups?.forEach((lookup, i) => {
    const alias = `lookup_${i}`;
    const from = read.has(lookup.from)
      ? db.raw('??.??', [read.get(lookup.from)!, lookup.from])
      : sourceColumn(db, resource, lookup.from);
    const fields = Object.entries(lookup.fields);
    const selects = fields.map(() => '??.?? AS ??').join(', ');
    const bindings = fields.flatMap(([name, column]) => ['referenced', column, name]);
    join(
      db.raw(`LEFT JOIN LATERAL (SELECT ${selects} FROM ?? AS referenced WHERE referenced.id = ?) AS ?? ON true`, [
        ...bindings,
        lookup.table,
        from,
        alias,
      ]),
    );
    for (const [name] of fields) read.set(name, alias);
  });
  return [...read.keys()];
}

/**
 * A list's export as statements: its own query (filters, search, sort, scope and the reader's read scope) with the
 * records it names joined in, and the count of its rows (capped, past the cap estimated); `looked` names the joined fields (the benchmark streams
 * `rows` through csv-stringify as the baseline of the product's export); `copied` is `rows` with its values written
 * in as the driver sends them (inline-bindings.ts), for COPY (which takes no parameters).
 */
export function listExportSelection(
  db: Db,
  admin: Pick<AdminService, 'listing'>,
  resource: AdminResource,
  query: ListQuery,
  reader: WriteActor,
): { count: ExportCount; rows: Statement; copied: string; looked: string[] } {
  const { filtered, ordered } = admin.listing(resource, query, reader);
  if (!ordered.hasSelects()) ordered.select(`${resource.model.tableName}.*`);
  const looked = joinLookups(db, resource, (lateral) => void ordered.joinRaw(lateral as never));
  for (const name of looked) ordered.select(name);
  const matches = () => filtered.clone().clearSelect().clearOrder().select(db.raw('1')).toKnexQuery();
  // Counted as the list's page counts: exactly up to its cap, past it the planner's estimate (the progress bar's).
  const count = db
    .count({ n: '*' })
    .from(
      matches()
        .limit(EXACT_COUNT_LIMIT + 1)
        .as('matches'),
    )
    .toSQL()
    .toNative();
  const estimated = matches().toSQL().toNative();
  const rows = ordered.toKnexQuery().toSQL().toNative();
  return {
    count: {
      sql: count.sql,
      bindings: count.bindings,
      estimate: { cap: EXACT_COUNT_LIMIT, matches: { sql: estimated.sql, bindings: estimated.bindings } },
    },
    rows: { sql: rows.sql, bindings: rows.bindings },
    copied: inlineBindings(ordered.toKnexQuery().toSQL()),
    looked,
  };
}

/**
 * Every console list as CSV, as people read it: the list's own query (filters, search, sort, scope and the reader's
 * read scope) read through a database cursor, the records it names joined in, each row presented for its reader as
 * the list's JSON shows it (secrets are never selected, `present` and `presentTo` rewrite it) and written in the
 * resource's export columns (names and emails, money in its currency's units, ISO 8601 instants), with a byte-order
 * mark so spreadsheets read accents, its cells formula-safe as finance's are.
 */
export function listExports({
  db,
  admin,
  clock,
  logger,
  sortedInFullUpTo = SORTED_IN_FULL_UP_TO,
}: {
  db: Db;
  admin: AdminService;
  clock: Clock;
  logger: Logger;
  /** Rows up to which the list may be sorted before its first row leaves (SORTED_IN_FULL_UP_TO unless told). */
  sortedInFullUpTo?: number;
}) {
  setImmediate(prepareSqlCells).unref();
  return {
    /** The CSV as a stream, its file name (`<resource>-<date>.csv`) and its row count (estimated past a cap). */
    async open(
      resource: AdminResource,
      query: ListQuery,
      reader: WriteActor,
    ): Promise<{ filename: string; total: number; estimated: boolean; body: Readable }> {
      const { count, rows, copied, looked } = listExportSelection(db, admin, resource, query, reader);
      const { columns } = resource.export;
      const day = clock.now().toISOString().slice(0, 10);
      const filename = `${resource.name}-${day}.csv`;
      const onStopped = (error: Error) =>
        logger.warn({ err: error, resource: resource.name }, 'a list export stopped before its end');
      if (!resource.present && !resource.presentTo) {
        // Rows that leave as the database has them: PostgreSQL's COPY streams them as it reads them (no FETCH
        // round trips). When every cell has its SQL, PostgreSQL writes the CSV itself (only touched up in bytes);
        // otherwise each row's object is built from its text by decoders chosen once per column.
        const head = csvHead(headersOf(columns));
        const { jsonAttributes } = resource.model;
        const { total, estimated, body } = await openCopyStream(db, {
          count,
          rows: copied,
          described: true,
          copy: (fields) => {
            const cells = sqlCells(copied, fields, columns, jsonAttributes);
            if (cells) return { select: cells.select, format: 'csv', body: new CopyCsvCells(cells.numbers, head) };
            const valuesOf = rowValues(fields, { jsonAttributes, looked });
            const body = new CopyTextRows(head, (values) => csvRowLine(columns, valuesOf(values)));
            return { format: 'text', body };
          },
          setup: (total) => (total > sortedInFullUpTo ? 'SET LOCAL enable_sort = off' : null),
          onStopped,
        });
        return { filename, total, estimated, body };
      }
      const { total, estimated, body } = await openCursorCsv<Row>(db, {
        count,
        rows,
        head: csvHead(headersOf(columns)),
        line: (raw) => {
          // As the list's JSON has it (a model built from the row, presented for its reader), with what was joined.
          const row = camelCased(raw) as Row;
          const joined = looked.map((name) => {
            const value = row[name];
            delete row[name]; // not the model's: kept out of its JSON
            return value;
          });
          const record = resource.model.fromDatabaseJson(row) as unknown as Row;
          const shown = JSON.parse(JSON.stringify(admin.shown(resource, record, reader))) as Row;
          looked.forEach((name, i) => (shown[name] = joined[i]));
          return csvRowLine(columns, shown);
        },
        rowMode: 'objects',
        batchRows: BATCH_ROWS,
        onStopped,
      });
      return { filename, total, estimated, body };
    },
  };
}

export type ListExports = ReturnType<typeof listExports>;
