import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseMajorUnits } from '../../admin/src/common/money';

/** The console's refund amount: typed in dollars, sent in cents, converted by string handling (no float error). */
describe('parseMajorUnits', () => {
  it('reads dollars and cents exactly', () => {
    expect(parseMajorUnits('12.34')).toBe(1234);
    expect(parseMajorUnits('0.29')).toBe(29); // 0.29 * 100 is 28.999… in floating point
    expect(parseMajorUnits('7')).toBe(700);
    expect(parseMajorUnits('7.5')).toBe(750);
    expect(parseMajorUnits('.5')).toBe(50);
    expect(parseMajorUnits('5.')).toBe(500);
    expect(parseMajorUnits(' $1,250.05 ')).toBe(125005);
    expect(parseMajorUnits('0')).toBe(0);
  });

  it('refuses what is not an amount of dollars and cents', () => {
    for (const text of ['', ' ', '.', '-1', '1.234', 'abc', '1,2', '12,34', '1e3', '0x10', '1.2.3', '$'])
      expect(parseMajorUnits(text), text).toBeNull();
  });

  it('turns every whole-cent amount written with two decimals back into its cents', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), (cents) => {
        const text = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
        expect(parseMajorUnits(text)).toBe(cents);
      }),
    );
  });
});
