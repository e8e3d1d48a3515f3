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

export const PRESETS: { id: PresetId; label: string }[] = [
  { id: 'this-month', label: 'This month' },
  { id: 'last-month', label: 'Last month' },
  { id: 'last-30-days', label: 'Last 30 days' },
  { id: 'this-year', label: 'This year' },
];

/** The preset these dates are, if any (to highlight it). */
export function matchingPreset(period: Period, now: Date = new Date()): PresetId | null {
  return (
    PRESETS.find(({ id }) => {
      const preset = presetPeriod(id, now);
      return preset.from === period.from && preset.to === period.to;
    })?.id ?? null
  );
}

/** A complete YYYY-MM-DD date (a date input gives '' while it is being typed). */
export const isDay = (value: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));

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

/** A bucket's name on the axis and in the table: "Nov 3", "Week of Nov 3, 2026", "November 2026". */
export function bucketLabel(start: string, bucket: Bucket, short = false): string {
  if (bucket === 'month')
    return dayText(start, short ? { month: 'short', year: 'numeric' } : { month: 'long', year: 'numeric' });
  if (bucket === 'week')
    return short ? dayText(start, { month: 'short', day: 'numeric' }) : `Week of ${dayText(start)}`;
  return short
    ? dayText(start, { month: 'short', day: 'numeric' })
    : dayText(start, { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' });
}
