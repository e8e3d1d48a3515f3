import { useSyncExternalStore } from 'react';

/**
 * The storefront speaks English, so dates, numbers and money are written as English readers write them, whatever
 * the browser's language (a page that mixed English words with German dates would read oddly; the server, which
 * renders public pages for everyone, could not know it anyway).
 */
export const LOCALE = 'en-US';

/**
 * Intl's output with plain spaces: ICU versions differ on the narrow and thin spaces around "AM" and "–" (Node's puts
 * U+202F where Chromium's puts a space), and the server's HTML must match what the browser renders when hydrating.
 */
export function plainSpaces(text: string): string {
  return text.replace(/[\u2009\u202f]/g, ' ');
}

/** Where a date is written: the reader's time zone. */
export interface ReaderClock {
  timeZone: string;
}

/** The server knows nothing of the reader: it writes UTC, and so does the browser while it hydrates. */
const SERVER: ReaderClock = { timeZone: 'UTC' };
let device: ReaderClock | undefined;

/** The reader's own zone (one object, so React sees the same snapshot each time). */
export function deviceClock(): ReaderClock {
  device ??= { timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone };
  return device;
}

const unchanging = () => () => undefined;

/**
 * For dates on server-rendered pages: the server's clock while rendering there and hydrating here (so the HTML
 * matches), then at once the reader's, which React renders right after hydration.
 */
export function useReaderClock(): ReaderClock {
  return useSyncExternalStore(unchanging, deviceClock, () => SERVER);
}
