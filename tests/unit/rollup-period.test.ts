import { describe, expect, it } from 'vitest';
import { monthsAndDays } from '../../api/src/finance/rollups/period';

/**
 * A period's figures by product or recipient: whole months from the monthly rollups, a partly covered month as its
 * days inside the period or as the whole month less its days outside, whichever is fewer days.
 */
describe('a period split into whole months and days', () => {
  it('reads a year to a late day of a month as whole months less the days after it', () => {
    expect(monthsAndDays('2025-11-29', '2026-11-29')).toEqual({
      months: { from: '2025-12-01', until: '2026-12-01' },
      days: [{ from: '2025-11-29', until: '2025-12-01' }],
      less: [{ from: '2026-11-30', until: '2026-12-01' }],
    });
  });

  it('reads the days of a month the period covers less than half of, the rest of one it covers more of', () => {
    expect(monthsAndDays('2025-11-05', '2026-11-05')).toEqual({
      months: { from: '2025-11-01', until: '2026-11-01' },
      days: [{ from: '2026-11-01', until: '2026-11-06' }],
      less: [{ from: '2025-11-01', until: '2025-11-05' }],
    });
  });

  it('takes a month whole when the period starts on its first day or ends on its last', () => {
    expect(monthsAndDays('2026-01-01', '2026-03-31')).toEqual({
      months: { from: '2026-01-01', until: '2026-04-01' },
      days: [],
      less: [],
    });
    expect(monthsAndDays('2026-02-01', '2026-02-28')).toEqual({
      months: { from: '2026-02-01', until: '2026-03-01' },
      days: [],
      less: [],
    });
    expect(monthsAndDays('2024-02-01', '2024-02-28')).toEqual({
      months: { from: '2024-02-01', until: '2024-03-01' },
      days: [],
      less: [{ from: '2024-02-29', until: '2024-03-01' }],
    });
  });

  it('reads days alone when a month is mostly outside the period, across a year end too', () => {
    expect(monthsAndDays('2026-11-29', '2026-11-29')).toEqual({
      months: null,
      days: [{ from: '2026-11-29', until: '2026-11-30' }],
      less: [],
    });
    expect(monthsAndDays('2025-12-20', '2026-01-10')).toEqual({
      months: null,
      days: [
        { from: '2025-12-20', until: '2026-01-01' },
        { from: '2026-01-01', until: '2026-01-11' },
      ],
      less: [],
    });
  });

  it('reads a month mostly inside the period whole, less the days before and after', () => {
    expect(monthsAndDays('2026-11-03', '2026-11-26')).toEqual({
      months: { from: '2026-11-01', until: '2026-12-01' },
      days: [],
      less: [
        { from: '2026-11-01', until: '2026-11-03' },
        { from: '2026-11-27', until: '2026-12-01' },
      ],
    });
    expect(monthsAndDays('2025-12-05', '2026-01-10')).toEqual({
      months: { from: '2025-12-01', until: '2026-01-01' },
      days: [{ from: '2026-01-01', until: '2026-01-11' }],
      less: [{ from: '2025-12-01', until: '2025-12-05' }],
    });
  });

  it('runs on without an end: every month from the first, the days before it when fewer', () => {
    expect(monthsAndDays('2026-10-31', null)).toEqual({
      months: { from: '2026-11-01', until: null },
      days: [{ from: '2026-10-31', until: '2026-11-01' }],
      less: [],
    });
    expect(monthsAndDays('2026-10-03', null)).toEqual({
      months: { from: '2026-10-01', until: null },
      days: [],
      less: [{ from: '2026-10-01', until: '2026-10-03' }],
    });
    expect(monthsAndDays('2026-12-01', null)).toEqual({
      months: { from: '2026-12-01', until: null },
      days: [],
      less: [],
    });
  });
});
