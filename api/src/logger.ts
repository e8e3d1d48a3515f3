import { pino, type Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

/** JSON lines on stdout; `fd: 2` for command-line tools, whose stdout is their answer. */
export function createLogger(level: string, fd: 1 | 2 = 1): Logger {
  return pino(
    { level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime },
    pino.destination({ fd, sync: true }),
  );
}
