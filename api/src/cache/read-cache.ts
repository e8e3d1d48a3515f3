import { LRUCache } from 'lru-cache';
import type { Clock } from '../clock';

/** A cached read: the value for a key, loaded at most once per lifetime however many callers ask at once. */
export type CachedRead<V> = ((key: string) => Promise<V>) & {
  /** Forgets one key: this process's own change to it is seen by its next read. */
  forget(key: string): void;
  /**
   * The kept value, else `load`'s (kept as the key's value): for a caller that must not take a second connection on
   * a miss (one inside a transaction reads through its own).
   */
  through(key: string, load: () => Promise<V>): Promise<V>;
};

export interface ReadCaches {
  /**
   * A read-through cache in front of `load`; callers must treat what it returns as read-only. With `revalidate`, an
   * entry past its time to live is still answered, for as long again, while one reload runs behind it: a reader
   * waits only for a key not read for that long (another process's change shows within twice the time to live).
   */
  cached<V>(load: (key: string) => Promise<V>, options?: { max?: number; revalidate?: boolean }): CachedRead<V>;
  /** Forgets every entry: this process's own writes are seen by its next read. */
  clearAll(): void;
}

/**
 * Read-through caches for what learners read far more often than staff change it: the catalog, course structure
 * and lesson bodies. An entry lives `ttlMs` at most, so a change made by another process shows within that; this
 * process's writes call `clearAll`. The promise is what is kept, so concurrent misses of one key share one load,
 * and a failed load is forgotten at once. `ttlMs` 0 turns caching off.
 */
export function readCaches({ ttlMs, clock }: { ttlMs: number; clock: Clock }): ReadCaches {
  const perf = { now: () => clock.now().getTime() }; // the app's clock, so tests can move time
  const stores: { clear(): void }[] = [];
  return {
    cached<V>(
      load: (key: string) => Promise<V>,
      { max = 10_000, revalidate = false }: { max?: number; revalidate?: boolean } = {},
    ): CachedRead<V> {
      if (ttlMs <= 0)
        return Object.assign((key: string) => load(key), {
          forget: () => {},
          through: (_: string, l: () => Promise<V>) => l(),
        });
      if (revalidate) return revalidating(load, max);
      const store = new LRUCache<string, Promise<V>>({ max, ttl: ttlMs, ttlResolution: 0, perf });
      stores.push(store);
      const through = (key: string, loadOnMiss: () => Promise<V>) => {
        const kept = store.get(key);
        if (kept) return kept;
        const loading = loadOnMiss();
        store.set(key, loading);
        loading.catch(() => {
          if (store.get(key) === loading) store.delete(key);
        });
        return loading;
      };
      const read = (key: string) => through(key, () => load(key));
      return Object.assign(read, { forget: (key: string) => void store.delete(key), through });
    },
    clearAll() {
      for (const store of stores) store.clear();
    },
  };

  /** `cached` with `revalidate`: each entry remembers when its load began, and a stale one is reloaded once at a time. */
  function revalidating<V>(load: (key: string) => Promise<V>, max: number): CachedRead<V> {
    type Entry = { value: Promise<V>; at: number };
    const store = new LRUCache<string, Entry>({ max, ttl: 2 * ttlMs, ttlResolution: 0, perf });
    const reloading = new Set<string>();
    // Bumped by clearAll: a reload begun before a change must not put back what it read.
    let generation = 0;
    const forgetReloads = () => {
      reloading.clear();
      generation++;
    };
    stores.push({
      clear() {
        store.clear();
        forgetReloads();
      },
    });
    const through = (key: string, loadOnMiss: () => Promise<V>) => {
      const at = perf.now();
      const kept = store.get(key);
      if (kept && at - kept.at >= ttlMs && !reloading.has(key)) {
        const since = generation;
        reloading.add(key);
        const loading = loadOnMiss();
        void loading
          .then(
            () => {
              if (since === generation) store.set(key, { value: loading, at });
            },
            () => {}, // the stale entry stays until its end; the next read tries again
          )
          .finally(() => {
            if (since === generation) reloading.delete(key);
          });
      }
      if (kept) return kept.value;
      const entry = { value: loadOnMiss(), at };
      store.set(key, entry);
      entry.value.catch(() => {
        if (store.get(key) === entry) store.delete(key);
      });
      return entry.value;
    };
    const read = (key: string) => through(key, () => load(key));
    const forget = (key: string) => {
      store.delete(key);
      forgetReloads();
    };
    return Object.assign(read, { forget, through });
  }
}
