import { isIPv6 } from 'node:net';
import type { Clock } from '../clock';
import type { Db } from '../db/connection';
import { AppError } from '../shared/errors';

export interface Limit {
  /** What is counted, e.g. `sign-in:email:ada@example.com`. */
  bucket: string;
  max: number;
  windowSeconds: number;
}

/**
 * The network a client address counts as in per-address limits: an IPv4 address itself, an IPv6 address its /64 (one
 * subscriber's usual allocation, which a single host can rotate through at will).
 */
export function networkOf(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
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

/** A counted attempt; `giveBack` uncounts it when it turned out not to be what the limit is about. */
export interface Hit {
  giveBack(): Promise<void>;
}

/**
 * Fixed-window counters in PostgreSQL, so every server process shares them. `hit` counts and refuses past
 * the limit; `hitAll` counts several in one statement; `read` reads counts without writing, for callers that count
 * only some attempts and refuse the others by what was counted (`refusal`).
 *
 * To limit failures under concurrency, count first and give the hit back on success: a check before the
 * attempt lets any number of parallel attempts pass it before the first failure is counted.
 */
export function rateLimiter({ db, clock }: { db: Db; clock: Clock }) {
  return {
    /** `on` a transaction counts only if it commits (and holds the counter's row until then). */
    async hit(limit: Limit, what = 'requests', on: Db = db): Promise<Hit> {
      const now = clock.now();
      const windowStart = windowOf(limit, now).start;
      const [row] = await on('rateLimitHits')
        .insert({ bucket: limit.bucket, windowStart, hits: 1 })
        .onConflict(['bucket', 'windowStart'])
        .merge({ hits: db.raw('rate_limit_hits.hits + 1') })
        .returning('hits');
      if (row.hits > limit.max) throw refuse(limit, now, what);
      return {
        giveBack: async () => {
          await db('rateLimitHits')
            .where({ bucket: limit.bucket, windowStart })
            .where('hits', '>', 0)
            .decrement('hits', 1);
        },
      };
    },

    /** Counts every limit in one statement; refuses if any is past its max (a mark read elsewhere has none). */
    async hitAll(limits: Limit[], what = 'requests'): Promise<void> {
      const now = clock.now();
      const rows: { bucket: string; hits: number }[] = await db('rateLimitHits')
        .insert(limits.map((limit) => ({ bucket: limit.bucket, windowStart: windowOf(limit, now).start, hits: 1 })))
        .onConflict(['bucket', 'windowStart'])
        .merge({ hits: db.raw('rate_limit_hits.hits + 1') })
        .returning(['bucket', 'hits']);
      const over = limits.find((limit) => rows.some((row) => row.bucket === limit.bucket && row.hits > limit.max));
      if (over) throw refuse(over, now, what);
    },

    /**
     * Each limit's hits in its current window and, with `back`, as many windows before it: one statement, nothing
     * written.
     */
    async read(reads: { limit: Limit; back?: number }[]): Promise<number[]> {
      const now = clock.now();
      const spans = reads.map(({ limit, back = 0 }) => {
        const { start } = windowOf(limit, now);
        return { bucket: limit.bucket, from: new Date(start.getTime() - back * limit.windowSeconds * 1000), to: start };
      });
      const rows: { bucket: string; windowStart: Date; hits: number }[] = await db('rateLimitHits')
        .where((where) => {
          for (const span of spans)
            where.orWhere((one) => one.where('bucket', span.bucket).whereBetween('windowStart', [span.from, span.to]));
        })
        .select('bucket', 'windowStart', 'hits');
      return spans.map((span) =>
        rows
          .filter((row) => row.bucket === span.bucket && row.windowStart >= span.from && row.windowStart <= span.to)
          .reduce((sum, row) => sum + row.hits, 0),
      );
    },

    /** The 429 for `limit` in its current window. */
    refusal: (limit: Limit, what = 'requests'): AppError => refuse(limit, clock.now(), what),
  };
}

export type RateLimiter = ReturnType<typeof rateLimiter>;
