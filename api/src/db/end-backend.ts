import pg from 'pg';

/** A server process as recorded when its session began: a PID alone may name a later session once it has ended. */
export interface Backend {
  pid: number;
  /** pg_stat_activity's backend_start, as PostgreSQL's text (microseconds kept). */
  started: string;
}

/** How long ending a backend may take to connect: it runs when something has already gone wrong. */
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * Ends a server process from a connection of its own, outside the pool: a full pool must not hold back freeing one
 * of its own connections. Only the session recorded is ended (same PID and the same start), so a PID reused by
 * another session since is left alone. Resolves whether it ended it; never rejects.
 */
export async function endBackend(settings: pg.ClientConfig | string, backend: Backend): Promise<boolean> {
  const base = typeof settings === 'string' ? { connectionString: settings } : settings;
  const client = new pg.Client({ ...base, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ ended: boolean }>(
      `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE pid = $1 AND backend_start = $2::timestamptz`,
      [backend.pid, backend.started],
    );
    return rows[0]?.ended === true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
