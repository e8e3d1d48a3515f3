import { median, round, type Row } from './rows';

export interface GrowthRequest {
  name: string;
  path: string;
  /** A check of the answer, so a request refused quickly is not measured as a fast one. */
  check?: (body: unknown) => boolean;
}

/** Each request's p50 in ms over `times` sequential requests (after one not counted), with the staff cookie. */
export async function growthTimes(
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

/** The rows: p50 at the full size beside the tenth; targets < 300 ms and at most 1.5 times the tenth's. */
export function growthRows(small: Map<string, number>, full: Map<string, number>, scale: number): Row[] {
  return [...full].map(([name, ms]) => {
    const before = small.get(name)!;
    const ratio = round(ms / before, 2);
    return {
      name: `${name} (p50, ${scale / 10}x → ${scale}x data)`,
      value: ms,
      unit: 'ms',
      baseline: before,
      ratio,
      target: '< 300 ms, ≤ 1.5x the 0.1x size',
      met: ms < 300 && ratio <= 1.5,
    };
  });
}
