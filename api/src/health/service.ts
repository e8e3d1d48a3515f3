import type { Db } from '../db/connection';

export interface Health {
  status: 'ok' | 'degraded';
  database: 'ok' | 'down';
}

/** Short enough for a load balancer that checks every second or two. */
export const PROBE_TIMEOUT_MS = 1_000;

/**
 * Readiness asks the database through `probe`, a connection of its own when the server has one: a request pool
 * that is busy (a spike, a long export) must not make every replica look down to the balancer at once.
 */
export function healthService({ db, probe = db }: { db: Db; probe?: Db }) {
  return {
    async check(): Promise<Health> {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('database probe timed out')), PROBE_TIMEOUT_MS);
      });
      try {
        await Promise.race([probe.raw('select 1'), timeout]);
        return { status: 'ok', database: 'ok' };
      } catch {
        return { status: 'degraded', database: 'down' };
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

export type HealthService = ReturnType<typeof healthService>;
