// Calendar dates in a reader's time zone, without a date library: Intl knows every zone's offsets (DST included).

/** A calendar date as written in the ISO way: 2026-12-08. */
export type CalendarDate = string;

const parts = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let format = parts.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    parts.set(timeZone, format);
  }
  return format;
}

/** The wall clock in `timeZone` at `instant`, read as if it were UTC (milliseconds). */
function wallClockMs(instant: Date, timeZone: string): number {
  const got: Record<string, number> = {};
  for (const p of formatterOf(timeZone).formatToParts(instant)) if (p.type !== 'literal') got[p.type] = Number(p.value);
  return Date.UTC(got.year!, got.month! - 1, got.day!, got.hour!, got.minute!, got.second!);
}

/** The date it is in `timeZone` at `instant`. */
export function localDate(instant: Date, timeZone: string): CalendarDate {
  return new Date(wallClockMs(instant, timeZone)).toISOString().slice(0, 10);
}

/** The date `days` days after `date` (calendar days: a DST change makes no day longer here). */
export function addDays(date: CalendarDate, days: number): CalendarDate {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + days)).toISOString().slice(0, 10);
}

/**
 * The first instant of `date` in `timeZone`: its midnight, or where a DST change skips midnight (clocks going from
 * 23:59:59 to 01:00), the first moment that day exists.
 */
export function startOfDate(date: CalendarDate, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number);
  const midnightAsUtc = Date.UTC(y!, m! - 1, d!);
  // Offsets are at most a day away: start from midnight UTC shifted by the zone's offset near it, then correct.
  let guess = midnightAsUtc - (wallClockMs(new Date(midnightAsUtc), timeZone) - midnightAsUtc);
  for (let i = 0; i < 3; i++) {
    const off = wallClockMs(new Date(guess), timeZone) - guess;
    const next = midnightAsUtc - off;
    if (next === guess) break;
    guess = next;
  }
  // In a gap the guess can land the evening before, or after the day's first moment: step to the day's first hour.
  while (localDate(new Date(guess), timeZone) < date) guess += 15 * 60_000;
  while (localDate(new Date(guess - 15 * 60_000), timeZone) === date) guess -= 15 * 60_000;
  return new Date(guess);
}
