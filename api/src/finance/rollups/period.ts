import { DAY_MS } from '../../shared/durations';
/**
 * A period's rows of the rollups by product or recipient: whole calendar months from the monthly rollups and the
 * days of its partly covered months from the daily ones. A partly covered month is read as its days inside the
 * period, or as the whole month less its days outside, whichever is fewer days, so a year reads about twelve rows a
 * key and at most about a month of days (none for a period ending on the last day of a month or the day before).
 */

const nextDay = (day: string) => new Date(new Date(`${day}T00:00:00Z`).getTime() + DAY_MS).toISOString().slice(0, 10);
const monthOf = (day: string) => `${day.slice(0, 7)}-01`;
const nextMonth = (day: string) => {
  const d = new Date(`${monthOf(day)}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return d.toISOString().slice(0, 10);
};
const daysBetween = (from: string, until: string) =>
  Math.round((new Date(`${until}T00:00:00Z`).getTime() - new Date(`${from}T00:00:00Z`).getTime()) / DAY_MS);

/** A half-open range of days (YYYY-MM-DD, UTC; `until` null: no end), or of months (their first days). */
export interface Range {
  from: string;
  until: string | null;
}

/** The months read whole, the days added to them and the days taken from them (days of a whole month outside). */
export interface PeriodParts {
  months: Range | null;
  days: Range[];
  less: Range[];
}

/** From `from` to `to` (both included; `to` null: no end), split into months, days added and days taken away. */
export function monthsAndDays(from: string, to: string | null): PeriodParts {
  const until = to === null ? null : nextDay(to);
  const days: Range[] = [];
  const less: Range[] = [];
  const first = monthOf(from);
  if (until !== null && until <= nextMonth(from)) {
    // Within one month: its days, or the whole month less the days before and after them.
    const end = nextMonth(from);
    if (until === end && from === first) return { months: { from: first, until: end }, days, less };
    if (daysBetween(from, until) <= daysBetween(first, end) - daysBetween(from, until))
      return { months: null, days: [{ from, until }], less };
    if (first < from) less.push({ from: first, until: from });
    if (until < end) less.push({ from: until, until: end });
    return { months: { from: first, until: end }, days, less };
  }
  // The first month: whole when the period starts on its first day or covers most of it.
  let monthsFrom = first;
  if (from !== first) {
    if (daysBetween(first, from) < daysBetween(from, nextMonth(from))) less.push({ from: first, until: from });
    else {
      monthsFrom = nextMonth(from);
      days.push({ from, until: monthsFrom });
    }
  }
  // The last month likewise: whole when the period ends on its last day or covers most of it.
  let monthsUntil = until;
  if (until !== null && until !== monthOf(until)) {
    const last = monthOf(until);
    if (daysBetween(until, nextMonth(until)) < daysBetween(last, until)) {
      monthsUntil = nextMonth(until);
      less.push({ from: until, until: monthsUntil });
    } else {
      monthsUntil = last;
      days.push({ from: last, until });
    }
  }
  const months = monthsUntil !== null && monthsFrom >= monthsUntil ? null : { from: monthsFrom, until: monthsUntil };
  return { months, days, less };
}

/**
 * The rows of a rollup by product or recipient in a period, as one UNION ALL over its monthly and daily tables:
 * `keys` and `measures` are read from each (the measures negated for the days taken away), `where` (with its
 * `bindings`) narrows each part.
 */
export function rowsInPeriod(
  tables: { daily: string; monthly: string },
  keys: readonly string[],
  measures: readonly string[],
  where: string,
  bindings: readonly string[],
  period: PeriodParts,
): { sql: string; bindings: string[] } {
  const parts: string[] = [];
  const all: string[] = [];
  const part = (table: string, column: string, range: Range, sign: '' | '-') => {
    const columns = [...keys, ...measures.map((m) => (sign ? `-${m} AS ${m}` : m))].join(', ');
    parts.push(
      `SELECT ${columns} FROM ${table} WHERE ${column} >= ?::date${range.until === null ? '' : ` AND ${column} < ?::date`} AND ${where}`,
    );
    all.push(range.from, ...(range.until === null ? [] : [range.until]), ...bindings);
  };
  if (period.months) part(tables.monthly, 'month', period.months, '');
  for (const days of period.days) part(tables.daily, 'day', days, '');
  for (const days of period.less) part(tables.daily, 'day', days, '-');
  return { sql: parts.join(' UNION ALL '), bindings: all };
}
