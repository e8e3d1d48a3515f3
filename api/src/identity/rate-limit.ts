import type { Clock } from '../clock';
import type { Db } from '../db/connection';
import { AppError } from '../http/errors';

export interface Limit {
  /** What is counted, e.g. `sign-in:email:ada@example.com`. */
  bucket: string;
  max: number;
  windowSeconds: number;
}

function windowOf(limit: Limit, now: Date): { start: Date; end: Date } {
  const size = limit.windowSeconds * 1000;
  const start = Math.floor(now.getTime() / size) * size;
  return { start: new Date(start), end: new Date(start + size) };
}

function refuse(limit: Limit, now: Date, what: string): AppError {
  const retryAfter = Math.max(1, Math.ceil((windowOf(limit, now).end.getTime() - now.getTime()) / 1000));
  return new AppError('rate-limited', `Too many ${what}. Try again in ${retryAfter} seconds.`, undefined, {
    'Retry-After': String(retryAfter),
  });
}

/**
 * Fixed-window counters in PostgreSQL, so every server process shares them. `hit` counts and refuses past
 * the limit; `check` refuses without counting (for limits that count only failures).
 */
export function rateLimiter({ db, clock }: { db: Db; clock: Clock }) {
  return {
    async hit(limit: Limit, what = 'requests'): Promise<void> {
      const now = clock.now();
      const [row] = await db('rateLimitHits')
        .insert({ bucket: limit.bucket, windowStart: windowOf(limit, now).start, hits: 1 })
        .onConflict(['bucket', 'windowStart'])
        .merge({ hits: db.raw('rate_limit_hits.hits + 1') })
        .returning('hits');
      if (row.hits > limit.max) throw refuse(limit, now, what);
    },

    async check(limit: Limit, what = 'requests'): Promise<void> {
      const now = clock.now();
      const row = await db('rateLimitHits').where({ bucket: limit.bucket, windowStart: windowOf(limit, now).start }).first('hits');
      if (row && row.hits >= limit.max) throw refuse(limit, now, what);
    },

  };
}

export type RateLimiter = ReturnType<typeof rateLimiter>;
