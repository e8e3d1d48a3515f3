import type { Clock } from '../../api/src/clock';

/** A clock the test moves by hand. */
export function manualClock(start = new Date()): Clock & { advance(ms: number): void; set(date: Date): void } {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(ms) {
      current += ms;
    },
    set(date) {
      current = date.getTime();
    },
  };
}

/** The start of the current hour: fixed-window limits (15 minutes, an hour) start with it, so none ends mid-test. */
export const onTheHour = () => new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
