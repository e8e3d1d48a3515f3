import { describe, expect, it } from 'vitest';
import { timeOrderedId } from '../../api/src/db/time-ordered-id';

describe('time-ordered ids', () => {
  it('are version 7 UUIDs whose first 48 bits are the milliseconds they were made at', () => {
    const at = Date.UTC(2026, 10, 30, 4, 5, 6, 789);
    const id = timeOrderedId(at);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.replace('-', '').slice(0, 12), 16)).toBe(at);
    expect(timeOrderedId(0).startsWith('00000000-0000-7')).toBe(true);
  });

  it('sort as text by the time they were made, and differ when made at the same millisecond', () => {
    const start = Date.UTC(2026, 0, 1);
    const made = Array.from({ length: 2_000 }, (_, n) => timeOrderedId(start + n * 37));
    expect([...made].sort()).toEqual(made);
    const same = Array.from({ length: 2_000 }, () => timeOrderedId(start));
    expect(new Set(same).size).toBe(same.length);
  });
});
