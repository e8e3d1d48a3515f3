import { Readable } from 'node:stream';
import pg from 'pg';
import type { Db } from './connection';
import { exportTotal, type ExportCount, type ExportTotal } from './export-total';

/**
 * A CSV export streamed from a database cursor (finance's exports, every console list's): memory stays flat
 * whatever the number of rows. The count and the rows are read in one repeatable-read transaction, so a row written
 * meanwhile changes neither; destroying the stream (a client gone) ends the transaction and gives the connection back.
 */

/** A statement and its $n parameters. */
export interface Statement {
  sql: string;
  bindings: readonly unknown[];
}

export interface CursorExportSpec<R> {
  /**
   * One number: the rows the export will hold (sent first, in X-Total-Rows, for the console's progress); past a cap
   * it may be estimated (export-total.ts). Or 'unannounced': a small result that costs as much to count as to compute
   * (a report grouped over a year of documents) is not counted first, so its header line leaves at once.
   */
  count: ExportCount | 'unannounced';
  rows: Statement;
  /**
   * The byte-order mark and the header line (csvHead); or made from the result's column names (as PostgreSQL names
   * them) when the columns are the query's own, written before the first line.
   */
  head: string | ((columns: string[]) => string);
  /** A fetched row's CSV line, CRLF-terminated. */
  line(row: R): string;
  /**
   * How rows arrive: 'text' as arrays of PostgreSQL's own text, unparsed (the fastest, for exports whose columns are
   * known); 'objects' as the driver parses them (dates, JSON), keyed by column name.
   */
  rowMode: 'text' | 'objects';
  /** Rows fetched at a time. */
  batchRows?: number;
  /** Told when an export stops before its end (a client gone, an error). */
  onStopped?(error: Error): void;
}

/** knex's pool, whose connections the export uses raw: no identifier mapping per row. */
interface Pool {
  acquireConnection(): Promise<pg.Client>;
  releaseConnection(connection: pg.Client): Promise<void>;
}

/** An export's transaction on its own connection. */
interface Session {
  connection: pg.Client;
  /** Cancels the statement running on the connection (a FETCH still sorting the whole result), from another one. */
  cancel(): Promise<void>;
  /** COMMIT after the last row, ROLLBACK otherwise; then the connection goes back to the pool. */
  end(error: Error | null): Promise<void>;
}

/** What a FETCH's result says of its columns. */
interface Described {
  fields: { name: string }[];
}

/** Every value as PostgreSQL's text, unparsed: the CSV writes it as it comes. */
const AS_TEXT = { getTypeParser: () => (value: string) => value };
const CURSOR = 'csv_export';

/**
 * The rows of an open cursor as CSV, one FETCH per chunk. Each row becomes its line as it arrives (no batch of row
 * objects is kept: they die young, and the heap stays small); a slow client pauses the fetching. Ending or
 * destroying the stream ends the transaction.
 */
class CursorCsv<R extends pg.QueryResultRow> extends Readable {
  #fetching = false;
  /** The header line, until it is written (with the first FETCH's column names when it is made from them). */
  #head: CursorExportSpec<R>['head'] | null;

  constructor(
    private readonly session: Session,
    head: CursorExportSpec<R>['head'],
    private readonly fetch: pg.QueryConfig,
    private readonly batchRows: number,
    private readonly line: (row: R) => string,
  ) {
    // Room for a few chunks, so the socket has something to send while the next FETCH runs.
    super({ highWaterMark: 1024 * 1024 });
    // A fixed header goes at once; one made from the columns waits for the first FETCH.
    if (typeof head === 'string') this.push(head);
    this.#head = typeof head === 'string' ? null : head;
  }

  /** The header line once, before the first row (or alone, for no rows). */
  #headOf(result: Described | undefined): string {
    const head = this.#head;
    if (head === null) return '';
    this.#head = null;
    return typeof head === 'string' ? head : head((result?.fields ?? []).map((f) => f.name));
  }

  override _read() {
    if (this.#fetching) return;
    this.#fetching = true;
    let chunk = '';
    let rows = 0;
    let failed: Error | null = null;
    const query = new pg.Query<R>(this.fetch);
    query.on('row', (row: R, result?: Described) => {
      rows++;
      if (this.destroyed || failed) return;
      try {
        chunk += this.#headOf(result) + this.line(row);
      } catch (error) {
        failed = error as Error;
      }
    });
    query.once('end', (result?: Described) => {
      this.#fetching = false;
      if (this.destroyed) return;
      if (failed) return void this.destroy(failed);
      chunk = this.#headOf(result) + chunk;
      if (chunk) this.push(chunk);
      if (rows < this.batchRows) this.push(null);
    });
    query.once('error', (error: Error) => {
      this.#fetching = false;
      this.destroy(error);
    });
    this.session.connection.query(query);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void) {
    // Ended: every row was read. Otherwise an error or a client gone: a FETCH under way is cancelled (the first one
    // sorts the whole result), then the transaction rolls back, and nothing is left running.
    const stopped = this.readableEnded ? null : (error ?? new Error('the export was closed before its end'));
    (stopped && this.#fetching ? this.session.cancel() : Promise.resolve())
      .then(() => this.session.end(stopped))
      .then(
        () => callback(error),
        (failure: Error) => callback(error ?? failure),
      );
  }
}

/** Opens the export's transaction and cursor: its row count (none when unannounced), and the CSV as a stream. */
export async function openCursorCsv<R extends pg.QueryResultRow>(
  db: Db,
  spec: CursorExportSpec<R> & { count: ExportCount },
): Promise<ExportTotal & { body: Readable }>;
export async function openCursorCsv<R extends pg.QueryResultRow>(
  db: Db,
  spec: CursorExportSpec<R> & { count: 'unannounced' },
): Promise<{ total: null; estimated: false; body: Readable }>;
export async function openCursorCsv<R extends pg.QueryResultRow>(
  db: Db,
  spec: CursorExportSpec<R>,
): Promise<{ total: number | null; estimated: boolean; body: Readable }> {
  const pool = db.client as Pool;
  const batchRows = spec.batchRows ?? 5000;
  const connection = await pool.acquireConnection();
  let pid = 0;
  let ended: Promise<void> | null = null;
  const session: Session = {
    connection,
    cancel: async () => {
      await db.raw('SELECT pg_cancel_backend(?)', [pid]).catch(() => undefined);
    },
    end: (error) =>
      (ended ??= (async () => {
        try {
          await connection.query(error ? 'ROLLBACK' : 'COMMIT');
        } catch {
          // In an unknown state: closed rather than given back (knex's pool drops a connection that has ended).
          await connection.end().catch(() => undefined);
        } finally {
          await pool.releaseConnection(connection);
        }
      })()),
  };
  let total: ExportTotal | { total: null; estimated: false };
  try {
    // The whole result is read: plan for all of it (hash joins and one sort), not for a cursor's first tenth.
    await connection.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL cursor_tuple_fraction = 1');
    const count = spec.count;
    if (count === 'unannounced') {
      ({ pid } = (await connection.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!);
      total = { total: null, estimated: false };
    } else {
      const { rows } = await connection.query<{ n: number; pid: number }>(
        `SELECT (${count.sql})::int AS n, pg_backend_pid() AS pid`,
        count.bindings as unknown[],
      );
      pid = rows[0]!.pid;
      total = await exportTotal(connection, count, rows[0]!.n);
    }
    await connection.query(`DECLARE ${CURSOR} NO SCROLL CURSOR FOR ${spec.rows.sql}`, spec.rows.bindings as unknown[]);
  } catch (error) {
    await session.end(error as Error);
    throw error;
  }
  const stopping: Session = {
    ...session,
    end: (error) => {
      if (error) spec.onStopped?.(error);
      return session.end(error);
    },
  };
  const fetch: pg.QueryConfig =
    spec.rowMode === 'text'
      ? ({ text: `FETCH ${batchRows} FROM ${CURSOR}`, rowMode: 'array', types: AS_TEXT } as pg.QueryArrayConfig)
      : { text: `FETCH ${batchRows} FROM ${CURSOR}` };
  return { ...total, body: new CursorCsv<R>(stopping, spec.head, fetch, batchRows, spec.line) };
}
