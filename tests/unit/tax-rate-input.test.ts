import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bpToPercent, percentToBp } from '../../admin/src/tax-rates/rate';

describe("the console's tax rate input", () => {
  it.each([
    ['19', 1900],
    ['6.5', 650],
    ['14.975', 1497.5],
    ['0.1', 10],
    ['7,25', 725],
    [' 20 % ', 2000],
    ['0', 0],
  ])('reads %s as %s basis points', (typed, bp) => {
    expect(percentToBp(typed)).toBe(bp);
  });

  it.each(['', 'abc', '14.9751', '-5', '1e2', '1000'])('refuses %j', (typed) => {
    expect(percentToBp(typed)).toBeNull();
  });

  it('shows basis points as the percentage typed, and reads it back exactly (property)', () => {
    expect([bpToPercent(1900), bpToPercent(650), bpToPercent(1497.5), bpToPercent(null)]).toEqual([
      '19',
      '6.5',
      '14.975',
      '',
    ]);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 50_000 }), (thousandths) => {
        const bp = thousandths / 10;
        expect(percentToBp(bpToPercent(bp))).toBe(bp);
      }),
    );
  });
});
