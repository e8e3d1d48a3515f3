import { describe, expect, it } from 'vitest';
import { readCaches } from '../../api/src/cache/read-cache';
import { systemClock } from '../../api/src/clock';
import { manualClock } from '../support/clock';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('read caches', () => {
  it('loads a key once however many ask at once, and keeps it', async () => {
    let loads = 0;
    const read = readCaches({ ttlMs: 60_000, clock: systemClock }).cached(async (key) => {
      loads++;
      await tick(5);
      return { key };
    });
    const answers = await Promise.all(Array.from({ length: 20 }, () => read('a')));
    expect(loads).toBe(1);
    expect(new Set(answers).size).toBe(1);
    expect(await read('a')).toBe(answers[0]);
    await read('b');
    expect(loads).toBe(2);
  });

  it('forgets a failed load at once, so the next read tries again', async () => {
    let calls = 0;
    const read = readCaches({ ttlMs: 60_000, clock: systemClock }).cached(async () => {
      calls++;
      if (calls === 1) throw new Error('database unreachable');
      return 'fine';
    });
    await expect(read('k')).rejects.toThrow('database unreachable');
    expect(await read('k')).toBe('fine');
    expect(calls).toBe(2);
  });

  it('reloads after the time to live, and after clearAll', async () => {
    let loads = 0;
    const clock = manualClock();
    const caches = readCaches({ ttlMs: 1000, clock });
    const read = caches.cached(async () => ++loads);
    expect(await read('k')).toBe(1);
    clock.advance(999);
    expect(await read('k')).toBe(1);
    clock.advance(2);
    expect(await read('k')).toBe(2);
    caches.clearAll();
    expect(await read('k')).toBe(3);
  });

  it('with a time to live of 0 every read loads', async () => {
    let loads = 0;
    const read = readCaches({ ttlMs: 0, clock: systemClock }).cached(async () => ++loads);
    await read('k');
    await read('k');
    expect(loads).toBe(2);
  });

  it("reads through a caller's own load on a miss, keeps what it read, and answers from the cache after", async () => {
    let loads = 0;
    let throughs = 0;
    const read = readCaches({ ttlMs: 60_000, clock: systemClock }).cached(async () => `pool ${++loads}`);
    const own = async () => `own ${++throughs}`;
    expect(await read.through('k', own)).toBe('own 1');
    expect(await read('k')).toBe('own 1');
    expect(await read.through('k', own)).toBe('own 1');
    expect([loads, throughs]).toEqual([0, 1]);
    expect(await read('j')).toBe('pool 1');
    expect(await read.through('j', own)).toBe('pool 1');
    expect(throughs).toBe(1);
  });
});
