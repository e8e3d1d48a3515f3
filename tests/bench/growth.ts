import { median, round, type Row } from './rows';

export interface GrowthRequest {
  name: string;
  path: string;
  /** A check of the answer, so a request refused quickly is not measured as a fast one. */
  check?: (body: unknown) => boolean;
}

/** Each request's p50 in ms over `times` sequential requests (after one not counted), with the staff cookie. */
async function growthTimes(
  baseUrl: string,
  cookie: string,
  requests: GrowthRequest[],
  times = 20,
): Promise<Map<string, number>> {
  const p50 = new Map<string, number>();
  for (const request of requests) {
    const durations: number[] = [];
    for (let i = 0; i <= times; i++) {
      const started = performance.now();
      const response = await fetch(`${baseUrl}${request.path}`, { headers: { Cookie: cookie } });
      const body: unknown = await response.json();
      const ms = performance.now() - started;
      if (!response.ok || (request.check && !request.check(body)))
        throw new Error(`${request.path} answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
      if (i > 0) durations.push(ms);
    }
    p50.set(request.name, round(median(durations), 1));
  }
  return p50;
}

/** A server on one size of the dataset, and a staff member's cookie there. */
export interface GrowthSide {
  baseUrl: string;
  cookie: string;
}

/**
 * Each request's p50 at both sizes, served side by side: `rounds` rounds, the sizes' order alternating, and per
 * request the median of each size's rounds. One sequence per size, minutes apart, measured the machine as much as the
 * data (the 365-day dashboard read 1.41 and 1.56 times its tenth in whole runs, 1.07 when measured again at rest).
 */
export async function interleavedGrowthTimes(
  tenth: GrowthSide,
  full: GrowthSide,
  requests: GrowthRequest[],
  rounds = 3,
): Promise<{ tenth: Map<string, number>; full: Map<string, number> }> {
  const sides = { tenth, full };
  const times = { tenth: new Map<string, number[]>(), full: new Map<string, number[]>() };
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (['tenth', 'full'] as const) : (['full', 'tenth'] as const);
    for (const size of order) {
      for (const [name, ms] of await growthTimes(sides[size].baseUrl, sides[size].cookie, requests))
        times[size].set(name, [...(times[size].get(name) ?? []), ms]);
    }
  }
  for (const { name } of requests)
    console.log(
      `${name}: p50 by round at the tenth ${times.tenth.get(name)!.join(', ')} ms, full ${times.full.get(name)!.join(', ')} ms`,
    );
  const medians = (bySize: Map<string, number[]>) =>
    new Map([...bySize].map(([name, p50s]) => [name, round(median(p50s), 1)]));
  return { tenth: medians(times.tenth), full: medians(times.full) };
}

/** The rows: p50 at the full size beside the tenth; targets < 300 ms and at most 1.5 times the tenth's. */
export function growthRows(small: Map<string, number>, full: Map<string, number>, scale: number): Row[] {
  return [...full].map(([name, ms]) => {
    const before = small.get(name)!;
    const ratio = round(ms / before, 2);
    return {
      name: `${name} (p50, median of interleaved rounds, ${scale / 10}x → ${scale}x data)`,
      value: ms,
      unit: 'ms',
      baseline: before,
      ratio,
      target: '< 300 ms, ≤ 1.5x the 0.1x size',
      met: ms < 300 && ratio <= 1.5,
    };
  });
}
