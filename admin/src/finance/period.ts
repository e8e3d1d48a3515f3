import type { TranslateFunction } from 'react-admin';
import type { FinanceSummary, LedgerAmounts, LedgerPoint } from './api';

/** The Finance page's periods: whole UTC days (as the API counts them), `from` and `to` both included. */
export interface Period {
  from: string;
  to: string;
}

export type PresetId = 'this-month' | 'last-month' | 'last-30-days' | 'this-year';

const day = (date: Date) => date.toISOString().slice(0, 10);
const utc = (year: number, month: number, date: number) => new Date(Date.UTC(year, month, date));

/** The presets, computed from `now` (today in UTC). */
export function presetPeriod(preset: PresetId, now: Date = new Date()): Period {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const today = day(now);
  switch (preset) {
    case 'this-month':
      return { from: day(utc(y, m, 1)), to: today };
    case 'last-month':
      return { from: day(utc(y, m - 1, 1)), to: day(utc(y, m, 0)) };
    case 'last-30-days':
      return { from: day(utc(y, m, now.getUTCDate() - 29)), to: today };
    case 'this-year':
      return { from: day(utc(y, 0, 1)), to: today };
  }
}

/** The presets in the order they are offered; their labels are `finance.period.presets.<id>`. */
export const PRESETS: PresetId[] = ['this-month', 'last-month', 'last-30-days', 'this-year'];

export const samePeriod = (a: Period, b: Period) => a.from === b.from && a.to === b.to;

/** The preset these dates are, if any (to highlight it). */
export function matchingPreset(period: Period, now: Date = new Date()): PresetId | null {
  return PRESETS.find((id) => samePeriod(presetPeriod(id, now), period)) ?? null;
}

/** A complete YYYY-MM-DD date (a date input gives '' while it is being typed). */
export const isDay = (value: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));

/** Both dates complete: a period the API can be asked about. */
export const isComplete = (period: Period) => isDay(period.from) && isDay(period.to);

/** "Jan 5, 2026" for a UTC day. */
export const dayText = (
  value: string,
  options: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric', year: 'numeric' },
) => new Date(`${value}T00:00:00Z`).toLocaleDateString('en-US', { ...options, timeZone: 'UTC' });

/** How the revenue-over-time chart groups days: a bar per day up to two months, then per week, then per month. */
export type Bucket = 'day' | 'week' | 'month';

export function bucketFor(days: number): Bucket {
  return days <= 62 ? 'day' : days <= 190 ? 'week' : 'month';
}

/** The first day of the day's bucket: itself, the Monday of its week, or the first of its month (UTC). */
export function bucketStart(value: string, bucket: Bucket): string {
  if (bucket === 'day') return value;
  if (bucket === 'month') return `${value.slice(0, 7)}-01`;
  const date = new Date(`${value}T00:00:00Z`);
  const sinceMonday = (date.getUTCDay() + 6) % 7;
  return day(new Date(date.getTime() - sinceMonday * 86_400_000));
}

/** A bucket's name on the chart's axis: "Nov 3" for a day or a week, "Nov 2026" for a month. */
export function shortBucketLabel(start: string, bucket: Bucket): string {
  return dayText(start, bucket === 'month' ? { month: 'short', year: 'numeric' } : { month: 'short', day: 'numeric' });
}

/** A bucket's name in the table: "Tue, Nov 3, 2026", "Week of Nov 3, 2026" (its translation), "November 2026". */
export function bucketLabel(start: string, bucket: Bucket, translate: TranslateFunction): string {
  if (bucket === 'month') return dayText(start, { month: 'long', year: 'numeric' });
  if (bucket === 'week') return translate('finance.overTime.weekOf', { day: dayText(start) });
  return dayText(start, { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' });
}

/** The days summed per bucket (a year of daily bars would be too thin to read). */
export function overTime(days: FinanceSummary['days'], bucket: Bucket): LedgerPoint[] {
  const points = new Map<string, LedgerPoint>();
  for (const d of days) {
    const start = bucketStart(d.day, bucket);
    const point = points.get(start) ?? { start, sales: 0, refunds: 0, disputes: 0, total: 0 };
    point.sales += d.sales;
    point.refunds += d.refunds;
    point.disputes += d.disputes;
    point.total += d.total;
    points.set(start, point);
  }
  return [...points.values()];
}

/** "Jan 1, 2026 – Jan 31, 2026": the period in captions. */
export const spanText = (period: Period) => `${dayText(period.from)} – ${dayText(period.to)}`;

/** Anything to draw: a sale, a refund or a dispute. */
export const hasMoney = (row: LedgerAmounts) => row.sales !== 0 || row.refunds !== 0 || row.disputes !== 0;
