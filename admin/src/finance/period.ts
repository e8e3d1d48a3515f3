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
  return PRESETS.find(({ id }) => {
    const preset = presetPeriod(id, now);
    return preset.from === period.from && preset.to === period.to;
  })?.id ?? null;
}

/** A complete YYYY-MM-DD date (a date input gives '' while it is being typed). */
export const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));

/** "Jan 5, 2026" for a UTC day. */
export const dayText = (value: string, options: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric', year: 'numeric' }) =>
  new Date(`${value}T00:00:00Z`).toLocaleDateString('en-US', { ...options, timeZone: 'UTC' });
