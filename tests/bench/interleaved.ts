import autocannon from 'autocannon';
import { loadAverage, median, round } from './rows';

export const CONNECTIONS = 32;

export interface Load {
  url: string;
  method?: 'GET' | 'PUT' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Send exactly this many requests (each request once) instead of running for a duration. */
  amount?: number;
  setupRequest?: autocannon.Request['setupRequest'];
}

export interface Sample {
  rps: number;
  p50: number;
  p99: number;
  /** Non-2xx answers and connection errors. */
  failed: number;
  /** Wall time from the first request to the last answer. */
  seconds: number;
}

export async function load(options: Load, seconds: number): Promise<Sample> {
  const started = performance.now();
  let lastAnswer = started;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        connections: CONNECTIONS,
        ...(options.amount ? { amount: options.amount } : { duration: seconds }),
        method: options.method ?? 'GET',
        headers: options.headers,
        body: options.body,
        ...(options.setupRequest && { requests: [{ setupRequest: options.setupRequest }] }),
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on('response', () => (lastAnswer = performance.now()));
  });
  // With `amount`, autocannon notices the last answer on its once-a-second tick, and its own average counts whole
  // seconds: the time of the last answer gives the rate.
  const wall = ((options.amount ? lastAnswer : performance.now()) - started) / 1000;
  return {
    rps: options.amount ? result.requests.total / wall : result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.non2xx + result.errors,
    seconds: round(wall, 2),
  };
}

export interface Interleaved {
  /** The median of each side's samples, by side. */
  median: Record<string, Sample>;
  rounds: { order: string[]; loadavg: number[]; rps: Record<string, number> }[];
}

/**
 * Each side loaded `rounds` times for `seconds`, the sides taking turns, their order reversed every round (A B C,
 * C B A, A B C…), so a change in the machine's load falls on every side alike; each side's median is kept. A short
 * warm-up of each side first (connections, JIT, prepared statements) is not counted. After each sample `settled`
 * waits until the servers have finished what the sample left running.
 */
export async function interleaved(
  sides: Record<string, Load>,
  {
    rounds,
    seconds,
    settled,
    warmUps,
  }: {
    rounds: number;
    seconds: number;
    settled: () => Promise<void>;
    /** Each side's warm-up, where it is not a second of its own load (a side that sends a set amount). */
    warmUps?: Record<string, Load>;
  },
): Promise<Interleaved> {
  const names = Object.keys(sides);
  for (const name of names) {
    await load(warmUps?.[name] ?? sides[name]!, 1);
    await settled();
  }
  const samples: Record<string, Sample[]> = Object.fromEntries(names.map((n) => [n, []]));
  const log: Interleaved['rounds'] = [];
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? names : [...names].reverse();
    const rps: Record<string, number> = {};
    for (const name of order) {
      const sample = await load(sides[name]!, seconds);
      await settled();
      samples[name]!.push(sample);
      rps[name] = round(sample.rps, 0);
    }
    log.push({ order, loadavg: loadAverage(), rps });
  }
  const pick = (list: Sample[]): Sample => ({
    rps: median(list.map((s) => s.rps)),
    p50: median(list.map((s) => s.p50)),
    p99: median(list.map((s) => s.p99)),
    failed: list.reduce((n, s) => n + s.failed, 0),
    seconds: list.reduce((n, s) => n + s.seconds, 0),
  });
  return { median: Object.fromEntries(names.map((n) => [n, pick(samples[n]!)])), rounds: log };
}
