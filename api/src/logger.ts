import { pino, type Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

/** JSON lines on stdout, or to a writer of the caller's (the CLI's stderr, since its stdout is its answer). */
export function createLogger(level: string, to?: { write(line: string): void }): Logger {
  return pino(
    { level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime },
    to ?? pino.destination({ fd: 1, sync: true }),
  );
}
