import { describe, expect, it } from 'vitest';
import { formatMinutes, plural } from '../../api/src/shared/words';
import { formatMinutes as salesPageMinutes } from '../../storefront/src/pages/product/salesText';

describe('counts and durations in words', () => {
  it('writes a count with its noun, one or many', () => {
    expect(plural(1, 'lesson')).toBe('1 lesson');
    expect(plural(12, 'lesson')).toBe('12 lessons');
    expect(plural(0, 'seat is', 'seats are')).toBe('0 seats are');
  });

  it('writes minutes as hours and minutes, leaving out a part that is zero', () => {
    expect(formatMinutes(45)).toBe('45 min');
    expect(formatMinutes(180)).toBe('3 h');
    expect(formatMinutes(150)).toBe('2 h 30 min');
  });

  it('keeps the sales page’s durations on one line with the same words', () => {
    expect(salesPageMinutes(150)).toBe('2\u00a0h\u00a030\u00a0min');
  });
});
