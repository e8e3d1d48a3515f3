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

  it('with revalidate, answers a stale entry while one reload runs behind it, and waits only past twice the time to live', async () => {
    const clock = manualClock();
    const caches = readCaches({ ttlMs: 1000, clock });
    let loads = 0;
    let release = () => {};
    const read = caches.cached(
      async () => {
        const n = ++loads;
        if (n > 1) await new Promise<void>((resolve) => (release = resolve));
        return n;
      },
      { revalidate: true },
    );
    expect(await read('k')).toBe(1);
    clock.advance(1001);
    // Stale: answered at once, one reload begun however many read.
    expect(await Promise.all([read('k'), read('k')])).toEqual([1, 1]);
    expect(loads).toBe(2);
    release();
    await expect.poll(() => read('k')).toBe(2);
    expect(loads).toBe(2);
    // Not read for twice the time to live: the reader waits for the load.
    clock.advance(2001);
    const waiting = read('k');
    expect(loads).toBe(3);
    release();
    expect(await waiting).toBe(3);
  });

  it('with revalidate, clearAll forgets the entry and what a reload begun before it read', async () => {
    const clock = manualClock();
    const caches = readCaches({ ttlMs: 1000, clock });
    let version = 'old';
    let release = () => {};
    let loads = 0;
    let reload: Promise<string> | null = null;
    const read = caches.cached(
      (): Promise<string> => {
        const seen = version;
        if (++loads !== 2) return Promise.resolve(seen);
        reload = new Promise<void>((resolve) => (release = resolve)).then(() => seen);
        return reload;
      },
      { revalidate: true },
    );
    expect(await read('k')).toBe('old');
    clock.advance(1001);
    expect(await read('k')).toBe('old'); // reload 2 reads 'old' and waits
    version = 'new';
    caches.clearAll();
    expect(await read('k')).toBe('new');
    release();
    // Its own handlers were attached first, so they have run once it is awaited here.
    expect(await reload).toBe('old');
    expect(await read('k')).toBe('new');
    expect(loads).toBe(3);
  });
});
