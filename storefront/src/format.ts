import { deviceClock, LOCALE, plainSpaces, type ReaderClock } from './readerClock';

/** "45 seconds", "1 minute", "12 minutes": how long to wait before trying again. */
export function formatWait(seconds: number | null): string {
  if (seconds === null) return 'a few minutes';
  if (seconds < 60) return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

const STYLES = {
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  dateTimeWithZone: {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  },
  date: { dateStyle: 'medium' },
  longDate: { dateStyle: 'long' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

// A formatter is costly to make and a page writes many dates (a comment thread): one per style and zone.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatIn(style: keyof typeof STYLES, iso: string, { timeZone }: ReaderClock): string {
  const key = `${style} ${timeZone}`;
  let format = formatters.get(key);
  if (!format) formatters.set(key, (format = new Intl.DateTimeFormat(LOCALE, { ...STYLES[style], timeZone })));
  return plainSpaces(format.format(new Date(iso)));
}

/** "Dec 3, 2026, 3:04 PM" in the reader's zone (pass useReaderClock() on server-rendered pages). */
export function formatDateTime(iso: string, clock: ReaderClock = deviceClock()): string {
  return formatIn('dateTime', iso, clock);
}

/** A deadline in the reader's time zone, the zone named ("Dec 3, 2026, 3:04 PM GMT+1"): for times that matter. */
export function formatDateTimeWithZone(iso: string, clock: ReaderClock = deviceClock()): string {
  return formatIn('dateTimeWithZone', iso, clock);
}

/** "Dec 3, 2026" in the reader's zone. */
export function formatDate(iso: string, clock: ReaderClock = deviceClock()): string {
  return formatIn('date', iso, clock);
}

/** "December 3, 2026" in the reader's zone: a date that is the point of the page (a certificate's). */
export function formatLongDate(iso: string, clock: ReaderClock = deviceClock()): string {
  return formatIn('longDate', iso, clock);
}

/** "Germany" for "DE"; the code itself when the browser has no name for it. */
export function countryName(code: string): string {
  try {
    return new Intl.DisplayNames(LOCALE, { type: 'region' }).of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}
