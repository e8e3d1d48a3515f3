import { describe, expect, it } from 'vitest';
import { openingOf } from '../../api/src/learning/drip/release';
import { addDays, localDate, startOfDate } from '../../api/src/learning/drip/zoned-dates';

// Scheduled release's calendar (docs/domain.md §11): a date's first instant in a zone, whatever DST does that day.
describe('release dates in a reader’s zone', () => {
  it.each([
    ['2026-11-02', 'America/Los_Angeles', '2026-11-02T08:00:00.000Z'], // the day after clocks went back
    ['2026-11-01', 'America/Los_Angeles', '2026-11-01T07:00:00.000Z'], // the day they go back, at 02:00
    ['2027-03-14', 'America/Los_Angeles', '2027-03-14T08:00:00.000Z'], // the day they go forward, at 02:00
    ['2026-09-27', 'Pacific/Auckland', '2026-09-26T12:00:00.000Z'], // the day they go forward, at 02:00
    ['2026-09-29', 'Pacific/Auckland', '2026-09-28T11:00:00.000Z'],
    ['2026-11-04', 'Asia/Kolkata', '2026-11-03T18:30:00.000Z'],
    // Midnight itself skipped: the day starts at 01:00.
    ['2026-09-06', 'America/Santiago', '2026-09-06T04:00:00.000Z'],
    ['2026-03-29', 'Asia/Beirut', '2026-03-28T22:00:00.000Z'],
    ['2026-12-01', 'UTC', '2026-12-01T00:00:00.000Z'],
  ])('%s starts in %s at %s', (date, zone, instant) => {
    expect(startOfDate(date, zone).toISOString()).toBe(instant);
    expect(localDate(startOfDate(date, zone), zone)).toBe(date);
    expect(localDate(new Date(startOfDate(date, zone).getTime() - 1), zone)).toBe(addDays(date, -1));
  });

  it('counts calendar days across months, years and a leap day', () => {
    expect(addDays('2026-12-30', 3)).toBe('2027-01-02');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
  });

  it('takes the later of a module’s and a lesson’s release, and gives no date before the reader starts', () => {
    const reader = { start: new Date('2026-10-30T17:00:00Z'), timeZone: 'America/Los_Angeles' };
    expect(openingOf([{ afterDays: 3 }, { on: '2026-11-10' }], reader)).toMatchObject({ on: '2026-11-10' });
    expect(openingOf([{ afterDays: 30 }, { on: '2026-11-10' }], reader)).toMatchObject({ on: '2026-11-29' });
    expect(openingOf([{ afterDays: 3 }], { start: null, timeZone: 'UTC' })).toEqual({
      on: null,
      at: null,
      afterDays: 3,
      timeZone: 'UTC',
    });
    expect(openingOf([], reader)).toBeNull();
  });
});
