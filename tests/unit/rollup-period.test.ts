import { describe, expect, it } from 'vitest';
import { monthsAndDays } from '../../api/src/finance/rollups/period';

/** A period's figures by product: whole months from the monthly rollups, the days around them from the daily ones. */
describe('a period split into whole months and days', () => {
  it('reads the whole months inside it and the days before and after them', () => {
    expect(monthsAndDays('2025-11-29', '2026-11-29')).toEqual({
      months: { from: '2025-12-01', until: '2026-11-01' },
      days: [
        { from: '2025-11-29', until: '2025-12-01' },
        { from: '2026-11-01', until: '2026-11-30' },
      ],
    });
  });

  it('takes a month whole when the period starts on its first day or ends on its last', () => {
    expect(monthsAndDays('2026-01-01', '2026-03-31')).toEqual({
      months: { from: '2026-01-01', until: '2026-04-01' },
      days: [],
    });
    expect(monthsAndDays('2026-02-01', '2026-02-28')).toEqual({
      months: { from: '2026-02-01', until: '2026-03-01' },
      days: [],
    });
    expect(monthsAndDays('2024-02-01', '2024-02-28').days).toEqual([{ from: '2024-02-01', until: '2024-02-29' }]);
  });

  it('reads days alone when no whole month fits, across a year end too', () => {
    expect(monthsAndDays('2026-11-29', '2026-11-29')).toEqual({
      months: null,
      days: [{ from: '2026-11-29', until: '2026-11-30' }],
    });
    expect(monthsAndDays('2025-12-15', '2026-01-20')).toEqual({
      months: null,
      days: [{ from: '2025-12-15', until: '2026-01-21' }],
    });
  });

  it('runs on without an end: every month from the first whole one, the days before it', () => {
    expect(monthsAndDays('2026-10-31', null)).toEqual({
      months: { from: '2026-11-01', until: null },
      days: [{ from: '2026-10-31', until: '2026-11-01' }],
    });
    expect(monthsAndDays('2026-12-01', null)).toEqual({ months: { from: '2026-12-01', until: null }, days: [] });
  });
});
