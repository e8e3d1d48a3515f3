import { useEffect, useState } from 'react';
import type { StoreSale } from '../../api/catalog';
import { formatDateTimeWithZone } from '../../format';
import { useRenderedNow } from './renderedNow';
import { useReaderZoneText } from './readerZoneText';
import { timeLeft } from './salesText';

const UNITS = [
  ['days', 'day'],
  ['hours', 'hour'],
  ['minutes', 'minute'],
  ['seconds', 'second'],
] as const;

/**
 * A running sale's time left, counting down each second, and its end in the reader's time zone (the pricing widget
 * below shows the sale's price). The count is plain text (role timer: never announced as it changes; read when
 * reached). The server renders it from its own reading of the clock, sent with the page (useRenderedNow), and the end
 * in UTC, so the browser's first render agrees; then it counts each second and names the end in the reader's zone.
 * `onEnded` runs once when the time is up.
 */
export function SaleCountdown({
  sale,
  endsAt,
  onEnded,
}: {
  sale: StoreSale;
  /** When the sale ends (a sale without an end has no countdown). */
  endsAt: string;
  onEnded: () => void;
}) {
  // The server's reading first (so its HTML has the time left, and hydrating matches it), then this device's clock.
  const [now, setNow] = useState<number | null>(useRenderedNow());
  const end = useReaderZoneText(endsAt, formatDateTimeWithZone);
  const ends = Date.parse(endsAt);
  useEffect(() => {
    setNow(Date.now());
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [ends]);
  const left = now !== null ? timeLeft(ends - now) : undefined;
  const over = left === null;
  useEffect(() => {
    if (over) onEnded();
  }, [over]); // once, when it turns over

  if (over) {
    return (
      <div className="sale-banner sale-banner-over">
        <p className="sale-banner-title">The sale has ended.</p>
      </div>
    );
  }
  return (
    <div className="sale-banner" role="group" aria-labelledby="sale-banner-title">
      <p className="sale-banner-title" id="sale-banner-title">
        <strong>Sale: {sale.percent} % off</strong> ends in
      </p>
      <p className="sale-countdown" role="timer" aria-labelledby="sale-banner-title">
        {UNITS.map(([key, unit]) => {
          const value = left ? left[key] : null;
          return (
            <span key={key} className="sale-countdown-part">
              <span className="sale-countdown-value">
                {value === null ? '--' : key === 'days' ? value : String(value).padStart(2, '0')}
              </span>{' '}
              <span className="sale-countdown-unit">{value === 1 ? unit : `${unit}s`}</span>
            </span>
          );
        })}
      </p>
      <p className="hint">
        Until <time dateTime={endsAt}>{end.text}</time>
        {end.readerZone ? ' (your time)' : ''}
      </p>
    </div>
  );
}
