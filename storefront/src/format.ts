/** "45 seconds", "1 minute", "12 minutes": how long to wait before trying again. */
export function formatWait(seconds: number | null): string {
  if (seconds === null) return 'a few minutes';
  if (seconds < 60) return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatDateTime(iso: string): string {
  return dateTime.format(new Date(iso));
}

const dateTimeZone = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
});

/** A deadline in the browser's time zone, the zone named ("Dec 3, 2026, 3:04 PM GMT+1"): for times that matter. */
export function formatDateTimeWithZone(iso: string): string {
  return dateTimeZone.format(new Date(iso));
}

const date = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

export function formatDate(iso: string): string {
  return date.format(new Date(iso));
}

/** "Germany" for "DE"; the code itself when the browser has no name for it. */
export function countryName(code: string): string {
  try {
    return new Intl.DisplayNames(undefined, { type: 'region' }).of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}
