/**
 * A period's rows of the rollups by product: the whole calendar months inside it from the monthly rollups, the days
 * before and after them from the daily ones, so a year reads about twelve rows a product and at most two months of
 * days rather than 365 days.
 */

const DAY_MS = 86_400_000;
const nextDay = (day: string) => new Date(new Date(`${day}T00:00:00Z`).getTime() + DAY_MS).toISOString().slice(0, 10);
const monthOf = (day: string) => `${day.slice(0, 7)}-01`;
const nextMonth = (day: string) => {
  const d = new Date(`${monthOf(day)}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return d.toISOString().slice(0, 10);
};

/** Half-open ranges of days (YYYY-MM-DD, UTC; `until` null: no end) and of months (their first days). */
export interface PeriodParts {
  months: { from: string; until: string | null } | null;
  days: { from: string; until: string | null }[];
}

/** From `from` to `to` (both included; `to` null: no end), split into whole months and the days around them. */
export function monthsAndDays(from: string, to: string | null): PeriodParts {
  const until = to === null ? null : nextDay(to);
  const monthsFrom = monthOf(from) === from ? from : nextMonth(from);
  const monthsUntil = until === null ? null : monthOf(until);
  if (monthsUntil !== null && monthsFrom >= monthsUntil) return { months: null, days: [{ from, until }] };
  const days = [];
  if (from < monthsFrom) days.push({ from, until: monthsFrom });
  if (monthsUntil !== null && monthsUntil < until!) days.push({ from: monthsUntil, until });
  return { months: { from: monthsFrom, until: monthsUntil }, days };
}

/**
 * The rows of a rollup by product in a period, as one UNION ALL over its monthly and daily tables: `columns` are read
 * from each, `where` (with its `bindings`) narrows each part.
 */
export function rowsInPeriod(
  tables: { daily: string; monthly: string },
  columns: string,
  where: string,
  bindings: readonly string[],
  period: PeriodParts,
): { sql: string; bindings: string[] } {
  const parts: string[] = [];
  const all: string[] = [];
  const part = (table: string, column: string, range: { from: string; until: string | null }) => {
    parts.push(
      `SELECT ${columns} FROM ${table} WHERE ${column} >= ?::date${range.until === null ? '' : ` AND ${column} < ?::date`} AND ${where}`,
    );
    all.push(range.from, ...(range.until === null ? [] : [range.until]), ...bindings);
  };
  if (period.months) part(tables.monthly, 'month', period.months);
  for (const days of period.days) part(tables.daily, 'day', days);
  return { sql: parts.join(' UNION ALL '), bindings: all };
}
