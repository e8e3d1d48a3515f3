import os from 'node:os';

/** One line of the benchmark's table and of BENCH_JSON: a figure, what it is compared with, and its target. */
export interface Row {
  name: string;
  value: number | string;
  unit: string;
  /** The same figure for the baseline (or for the smaller dataset in a growth row); null when none. */
  baseline: number | null;
  /** value ÷ baseline; null when there is no baseline. */
  ratio: number | null;
  target: string | null;
  /** Null when the row has no target. */
  met: boolean | null;
}

export const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The machine's load averages (1, 5 and 15 minutes), rounded: printed with each measurement it may explain. */
export const loadAverage = () => os.loadavg().map((l) => round(l, 2));

/** A row compared with a baseline: `ratio` and `met` from `minRatio` (and any further condition). */
export function comparedRow(
  name: string,
  value: number,
  unit: string,
  baseline: number,
  minRatio: number,
  also: { ok: boolean; say: string } = { ok: true, say: '' },
): Row {
  // A baseline that finished nothing in its sample gives no ratio: the product is ahead if it finished anything.
  const ratio = baseline > 0 ? round(value / baseline, 2) : null;
  return {
    name,
    value: round(value, 0),
    unit,
    baseline: round(baseline, 0),
    ratio,
    target: `≥ ${minRatio}x baseline${also.say}`,
    met: (ratio === null ? value > 0 : ratio >= minRatio) && also.ok,
  };
}

export function printTable(rows: Row[]): void {
  console.table(
    rows.map((r) => ({
      name: r.name,
      value: `${typeof r.value === 'number' ? r.value.toLocaleString('en-US') : r.value} ${r.unit}`,
      baseline: r.baseline ?? '',
      ratio: r.ratio ?? '',
      target: r.target ?? '',
      met: r.met === null ? '' : r.met ? 'yes' : 'NO',
    })),
  );
}
