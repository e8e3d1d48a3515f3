import { AsyncLocalStorage } from 'node:async_hooks';
import http from 'node:http';
import type { Db } from '../../api/src/db/connection';

/**
 * The SQL one request of the product sent, kept so a bare handler can send the very same statements: a baseline
 * that does the product's work for that endpoint (its session lookup, access check, coupon and sale lookups, the
 * list's count…) and nothing else. Statements the product sent at once (Promise.all) stay together as one wave and
 * are replayed at once; a transaction's statements are replayed in order on one connection.
 */
interface RecordedStatement {
  sql: string;
  bindings: unknown[];
  options: Record<string, unknown>;
  txId: string | undefined;
  uid: string;
  started: number;
  ended: number;
}

/** Statements sent on one connection in order: a transaction's (BEGIN to COMMIT), or one statement alone. */
type Unit = RecordedStatement[];

export interface Recording {
  /** Waves replayed one after the other; the units of a wave at once. */
  waves: Unit[][];
  statements: number;
}

interface PgConnection {
  query(config: { text: string; values: unknown[]; name?: string }): Promise<{ rows: unknown[] }>;
}

/**
 * Records the statements of requests run inside `recording(name, ...)` on `db` (the product's own connection pool),
 * found by the request's async context, so other traffic on the pool is left out.
 */
function queryRecorder(db: Db) {
  const context = new AsyncLocalStorage<RecordedStatement[]>();
  let clock = 0;
  const pending = new Map<string, RecordedStatement>();
  db.on(
    'query',
    (q: { sql: string; bindings?: unknown[]; options?: object; __knexTxId?: string; __knexQueryUid: string }) => {
      const list = context.getStore();
      if (!list) return;
      const statement: RecordedStatement = {
        sql: q.sql,
        bindings: q.bindings ?? [],
        options: { ...q.options },
        txId: q.__knexTxId,
        uid: q.__knexQueryUid,
        started: ++clock,
        ended: Number.POSITIVE_INFINITY,
      };
      list.push(statement);
      if (q.__knexQueryUid) pending.set(q.__knexQueryUid, statement);
    },
  );
  const done = (_response: unknown, q: { __knexQueryUid?: string }) => {
    const statement = q?.__knexQueryUid ? pending.get(q.__knexQueryUid) : undefined;
    if (!statement) return;
    statement.ended = ++clock;
    pending.delete(q.__knexQueryUid!);
  };
  db.on('query-response', done);
  db.on('query-error', (error: unknown, q: { __knexQueryUid?: string }) => done(error, q));

  return {
    /** Runs `handle` (a request) with its statements recorded into `into`. */
    within<T>(into: RecordedStatement[], handle: () => T): T {
      return context.run(into, handle);
    },
  };
}

/**
 * An HTTP server for a Koa callback whose requests carrying `x-bench-record: <name>` have their SQL on `db` kept
 * under that name once answered.
 */
export function recordingServer(
  handle: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>,
  db: Db,
): { server: http.Server; recordings: Map<string, Recording> } {
  const recorder = queryRecorder(db);
  const recordings = new Map<string, Recording>();
  const server = http.createServer((req, res) => {
    const name = req.headers['x-bench-record'];
    if (typeof name !== 'string') return void handle(req, res);
    const statements: RecordedStatement[] = [];
    res.once('finish', () => recordings.set(name, toRecording(statements)));
    recorder.within(statements, () => void handle(req, res));
  });
  return { server, recordings };
}

/** Statements in the order they were sent, grouped into waves of what was in flight together. */
export function toRecording(statements: RecordedStatement[]): Recording {
  const units: Unit[] = [];
  const byTx = new Map<string, Unit>();
  for (const s of statements) {
    if (s.txId) {
      const unit = byTx.get(s.txId);
      if (unit) unit.push(s);
      else {
        const opened = [s];
        byTx.set(s.txId, opened);
        units.push(opened);
      }
    } else units.push([s]);
  }
  const waves: Unit[][] = [];
  let current: Unit[] = [];
  let busyUntil = 0;
  for (const unit of units) {
    const started = unit[0]!.started;
    if (current.length && started > busyUntil) {
      waves.push(current);
      current = [];
    }
    current.push(unit);
    busyUntil = Math.max(busyUntil, ...unit.map((s) => s.ended));
  }
  if (current.length) waves.push(current);
  return { waves, statements: statements.length };
}

/**
 * Sends a recording's statements again through the same driver and pool settings as knex (a connection from the
 * pool, the same text, values and prepared-statement name), rows mapped back to camelCase as the product's are.
 * A statement that failed for the product (a unique key deciding a race) may fail here too: it is let pass.
 */
export async function replay(db: Db, recording: Recording): Promise<unknown[]> {
  const client = db.client as {
    acquireConnection(): Promise<PgConnection>;
    releaseConnection(connection: PgConnection): Promise<void>;
    config: { postProcessResponse?: (result: unknown) => unknown };
  };
  const map = client.config.postProcessResponse ?? ((rows: unknown) => rows);
  const answers: unknown[] = [];
  for (const wave of recording.waves) {
    await Promise.all(
      wave.map(async (unit) => {
        const connection = await client.acquireConnection();
        try {
          for (const s of unit) {
            const name = typeof s.options.name === 'string' ? s.options.name : undefined;
            const result = await connection
              .query({ text: s.sql, values: s.bindings, ...(name && { name }) })
              .catch(() => ({ rows: [] }));
            answers.push(map(result.rows));
          }
        } finally {
          await client.releaseConnection(connection);
        }
      }),
    );
  }
  return answers;
}
