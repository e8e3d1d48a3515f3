/** The visitor's own IANA time zone, as the browser reports it. */
export function visitorTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** "Tue, Dec 1, 2026, 6:00 – 9:00 PM": a session's start and end in `timeZone` (the visitor's by default). */
export function formatSessionRange(startsAt: string, endsAt: string, timeZone?: string): string {
  const format = new Intl.DateTimeFormat(undefined, {
    weekday: 'short',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    ...(timeZone && { timeZone }),
  });
  return format.formatRange(new Date(startsAt), new Date(endsAt));
}

/** Whether two zones show the same wall-clock time at this instant (then naming both adds nothing). */
export function sameWallClock(at: string, zone: string, other: string): boolean {
  const format = (timeZone: string) =>
    new Intl.DateTimeFormat('en-US', { timeZone, dateStyle: 'short', timeStyle: 'short' }).format(new Date(at));
  return format(zone) === format(other);
}
