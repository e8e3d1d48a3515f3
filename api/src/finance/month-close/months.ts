/**
 * Months as finance closes them: calendar months in UTC, as the finance reports and rollups count days
 * (docs/domain.md §9, §21). A month is named `YYYY-MM`.
 */

/** The first instant of a month. */
export const monthStart = (month: string): Date => new Date(`${month}-01T00:00:00Z`);

/** The month after this one. */
export function nextMonth(month: string): string {
  const d = monthStart(month);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return d.toISOString().slice(0, 7);
}

/** The month an instant falls in. */
export const monthOf = (at: Date): string => at.toISOString().slice(0, 7);

/** The month's days as the finance reports take them: its first and last day, both included (YYYY-MM-DD). */
export function daysOf(month: string): { from: string; to: string } {
  const last = new Date(monthStart(nextMonth(month)).getTime() - 86_400_000);
  return { from: `${month}-01`, to: last.toISOString().slice(0, 10) };
}
