import type { Db } from '../db/connection';

export interface Health {
  status: 'ok' | 'degraded';
  database: 'ok' | 'down';
}

const PROBE_TIMEOUT_MS = 2_000;

export function healthService({ db }: { db: Db }) {
  return {
    async check(): Promise<Health> {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('database probe timed out')), PROBE_TIMEOUT_MS);
      });
      try {
        await Promise.race([db.raw('select 1'), timeout]);
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
