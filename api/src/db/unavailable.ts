/**
 * PostgreSQL's codes for a server that is shutting down, crashed or not yet accepting connections (class 57P), and
 * the driver's words for a connection that is gone. Background work that meets one of these is not broken: the
 * database is away (a restart, a failover, Ctrl-C reaching the embedded server), and the next run tries again.
 */
const SERVER_AWAY_CODES = new Set(['57P01', '57P02', '57P03', 'ECONNREFUSED', 'ECONNRESET']);
const CONNECTION_GONE = /Connection terminated|connection ended|Client was closed|pool is probably full/i;

export function databaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (typeof code === 'string' && SERVER_AWAY_CODES.has(code)) || CONNECTION_GONE.test(error.message);
}

/** What a log line says of such an error: its last line (pg-boss puts its SQL first), no stack. */
export function unavailableSummary(error: unknown): { message: string; code?: string } {
  const lines = (error instanceof Error ? error.message : String(error)).trim().split('\n');
  const code = (error as { code?: unknown }).code;
  return { message: lines.at(-1)!.replace(/^\s*-\s*/, ''), ...(typeof code === 'string' && { code }) };
}
