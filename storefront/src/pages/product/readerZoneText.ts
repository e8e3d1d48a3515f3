import { startTransition, useEffect, useState } from 'react';
import { deviceClock, type ReaderClock } from '../../readerClock';
import { whenIdle } from '../../whenIdle';
import { useServerRendered } from './renderedNow';

/**
 * A date as `write` puts it, first as the server wrote it (in UTC, sent with the page: hydrating then makes no
 * time-zone formatter, the first of which costs a phone up to a tenth of a second in one piece), then in the reader's
 * zone once the page is idle. `readerZone` says the text is in the reader's zone, and it is not UTC.
 */
export function useReaderZoneText(
  iso: string,
  write: (iso: string, clock: ReaderClock) => string,
): { text: string; readerZone: boolean } {
  const server = useServerRendered(() => write(iso, { timeZone: 'UTC' }));
  const [renderedFor] = useState(iso);
  const [reader, setReader] = useState<{ iso: string; text: string } | null>(null);
  useEffect(
    () =>
      whenIdle(() => {
        const text = write(iso, deviceClock());
        startTransition(() => setReader({ iso, text }));
      }),
    [iso],
  );
  const readerZone = deviceClock().timeZone !== 'UTC';
  if (reader?.iso === iso) return { text: reader.text, readerZone };
  if (server !== null && renderedFor === iso) return { text: server, readerZone: false };
  // Arriving from another page of the app: the reader's zone at once.
  return { text: write(iso, deviceClock()), readerZone };
}
