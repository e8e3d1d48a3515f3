/**
 * PostgreSQL's codes for a server that is shutting down, crashed or not yet accepting connections (class 57P), an
 * error of severity FATAL (the server ended that session, whatever the code), a statement cancelled by a signal from
 * outside (Ctrl-C reaching the embedded server's backends, or an operator's pg_cancel_backend; not a statement
 * timeout, which shares the code 57014 and is a bug to see), and the driver's words for a connection that is gone.
 * Background work that meets one of these is not broken: the database is away or being stopped (a restart, a
 * failover, Ctrl-C), and the next run tries again.
 */
const SERVER_AWAY_CODES = new Set(['57P01', '57P02', '57P03', 'ECONNREFUSED', 'ECONNRESET']);
const CONNECTION_GONE = /Connection terminated|connection ended|Client was closed|pool is probably full/i;
const CANCELLED_FROM_OUTSIDE = /canceling statement due to user request/;

export function databaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, severity } = error as { code?: unknown; severity?: unknown };
  return (
    (typeof code === 'string' && SERVER_AWAY_CODES.has(code)) ||
    severity === 'FATAL' ||
    (code === '57014' && CANCELLED_FROM_OUTSIDE.test(error.message)) ||
    CONNECTION_GONE.test(error.message)
  );
}

/** What a log line says of such an error: its last line (pg-boss puts its SQL first), no stack. */
export function unavailableSummary(error: unknown): { message: string; code?: string } {
  const lines = (error instanceof Error ? error.message : String(error)).trim().split('\n');
  const code = (error as { code?: unknown }).code;
  return { message: lines.at(-1)!.replace(/^\s*-\s*/, ''), ...(typeof code === 'string' && { code }) };
}
