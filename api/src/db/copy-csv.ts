import { pipeline, type Readable, type Transform } from 'node:stream';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { CopyCsvCells } from './copy-csv-cells';
import type { Db } from './connection';
import type { Statement } from './csv-cursor';
import { endBackend, type Backend } from './end-backend';
import { exportTotal, type ExportCount, type ExportTotal } from './export-total';

/**
 * A CSV export written by PostgreSQL itself (`COPY (SELECT …) TO STDOUT (FORMAT csv)`) and streamed as it comes:
 * no row is parsed in Node, only the bytes are touched up into the exports' CSV (copy-csv-cells.ts). The count and
 * the rows are read in one repeatable-read transaction, so a row written meanwhile changes neither. A slow reader
 * pauses the COPY (the socket fills); a reader gone or an error ends the transaction and gives the connection back,
 * or closes it when the COPY was cut off mid-way.
 */

export interface CopyExportSpec {
  /** One number: the rows the export will hold (sent first, in X-Total-Rows, for the console's progress). */
  count: Statement;
  /** The rows' SELECT, its values written in (COPY takes no parameters), each column as the CSV writes it. */
  rows: string;
  /** The byte-order mark and the header line (csvHead), sent before the first row. */
  head: string;
  /** `numbers[i]`: column i is written as PostgreSQL prints it; every other one as text (formula-safe, quoted). */
  numbers: readonly boolean[];
  /** Told when an export stops before its end (a client gone, an error). */
  onStopped?(error: Error): void;
}

/**
 * A COPY's rows in any form, chosen once the rows' columns are known (each field's name and type, read without
 * running the query, when `described`): the COPY's SELECT (`rows` itself unless given), PostgreSQL's output format
 * (csv or its text format) and `body`, the transform its output goes through.
 */
export interface CopyStreamSpec {
  /** The rows the export will hold (exactly, or estimated past a cap: export-total.ts). */
  count: ExportCount;
  rows: string;
  described: boolean;
  copy(fields: readonly CopyField[]): { select?: string; format: 'csv' | 'text'; body: Transform };
  /** A statement run before the COPY, once the count is known (a planner setting for this export alone), or null. */
  setup?(total: number): string | null;
  onStopped?(error: Error): void;
}

/** A column of the COPY's rows: its name and PostgreSQL type, as the driver describes them. */
export interface CopyField {
  name: string;
  dataTypeID: number;
}

/** knex's pool, whose connections the export uses raw, and the settings it opens them with. */
interface Pool {
  acquireConnection(): Promise<pg.Client>;
  releaseConnection(connection: pg.Client): Promise<void>;
  connectionSettings: pg.ClientConfig | string;
}

/** Opens the export's transaction and its COPY: the row count, and the CSV as a stream. */
export function openCopyCsv(db: Db, spec: CopyExportSpec): Promise<ExportTotal & { body: Readable }> {
  return openCopyStream(db, {
    count: spec.count,
    rows: spec.rows,
    described: false,
    copy: () => ({ format: 'csv', body: new CopyCsvCells(spec.numbers, spec.head) }),
    onStopped: spec.onStopped,
  });
}

/** Opens the transaction and its COPY: the row count, and the rows through the spec's transform as a stream. */
export async function openCopyStream(db: Db, spec: CopyStreamSpec): Promise<ExportTotal & { body: Readable }> {
  const pool = db.client as Pool;
  const connection = await pool.acquireConnection();
  // The connection's server process, recorded when the export starts: what a COPY cut off mid-way ends.
  let backend: Backend | null = null;
  const release = async (ending: 'COMMIT' | 'ROLLBACK' | 'close') => {
    try {
      if (
        ending !== 'close' &&
        (await connection.query(ending).then(
          () => true,
          () => false,
        ))
      )
        return;
      // A COPY cut off mid-way (or an unknown state): its server process is ended from a connection outside the
      // pool (a full pool must not hold this up), and knex's pool drops the connection, which has ended with it.
      if (backend) await endBackend(pool.connectionSettings, backend);
      await connection.end().catch(() => undefined);
    } finally {
      await pool.releaseConnection(connection);
    }
  };
  let total: ExportTotal;
  let made: ReturnType<CopyStreamSpec['copy']>;
  try {
    await connection.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const { rows } = await connection.query<{ n: number } & Backend>(
      `SELECT (${spec.count.sql})::int AS n, pg_backend_pid() AS pid,
              (SELECT to_char(backend_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
                 FROM pg_stat_activity WHERE pid = pg_backend_pid()) AS started`,
      spec.count.bindings as unknown[],
    );
    const { n, pid, started } = rows[0]!;
    backend = { pid, started };
    total = await exportTotal(connection, spec.count, n);
    const setup = spec.setup?.(total.total);
    if (setup) await connection.query(setup);
    let fields: CopyField[] = [];
    if (spec.described) ({ fields } = await connection.query(`SELECT * FROM (${spec.rows}) AS q LIMIT 0`));
    made = spec.copy(fields);
  } catch (error) {
    await release('ROLLBACK');
    throw error;
  }

  const { body, format, select = spec.rows } = made;
  const copy = connection.query(copyTo(`COPY (${select}) TO STDOUT WITH (FORMAT ${format})`));
  // Whether PostgreSQL has finished the COPY (its last row or its error) and waits for the next statement: only then
  // may the transaction be ended on this connection.
  let copyFinished = false;
  const submitted = copy as unknown as { handleReadyForQuery(): void };
  const ready = submitted.handleReadyForQuery.bind(copy);
  submitted.handleReadyForQuery = () => {
    copyFinished = true;
    ready();
  };
  pipeline(copy, body, (error) => {
    const stopped = error ? (error as Error) : null;
    if (stopped) spec.onStopped?.(stopped);
    void release(!stopped ? 'COMMIT' : copyFinished ? 'ROLLBACK' : 'close');
  });
  return { ...total, body };
}
