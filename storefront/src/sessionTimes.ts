import { deviceClock, LOCALE, plainSpaces, type ReaderClock } from './readerClock';

/**
 * "Tue, Dec 1, 2026, 6:00 – 9:00 PM": a session's start and end in `timeZone` (the reader's by default; pass
 * useReaderClock() on server-rendered pages).
 */
export function formatSessionRange(
  startsAt: string,
  endsAt: string,
  timeZone?: string,
  clock: ReaderClock = deviceClock(),
  { zoneName = false }: { zoneName?: boolean } = {},
): string {
  const format = new Intl.DateTimeFormat(LOCALE, {
    weekday: 'short',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: timeZone ?? clock.timeZone,
    // "GMT+5:30" after the end: the zone named beside the time, where the reader may not know which zone it is.
    ...(zoneName && { timeZoneName: 'short' as const }),
  });
  return plainSpaces(format.formatRange(new Date(startsAt), new Date(endsAt)));
}

/** Whether two zones show the same wall-clock time at this instant (then naming both adds nothing). */
export function sameWallClock(at: string, zone: string, other: string): boolean {
  const format = (timeZone: string) =>
    new Intl.DateTimeFormat('en-US', { timeZone, dateStyle: 'short', timeStyle: 'short' }).format(new Date(at));
  return format(zone) === format(other);
}
