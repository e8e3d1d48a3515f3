import { createContext } from 'react';
import { ApiError, type ApiErrorBody } from './api/client';
import type { AsyncState } from './useAsync';

/*
 * Public pages are rendered on the server, then hydrated in the browser by the same components. What their useAsync
 * loads is awaited on the server and sent with the page, so the browser's first render shows the same answers
 * instead of a loading line (and asks nothing again). Answers are known by the hook's useId(), which React keeps the
 * same on the server and in the hydrating browser for the same tree.
 */

/** One load's answer as it travels in the page: its data, or the API error it ended with. */
export type Seed =
  { data: unknown } | { error: { status: number; body: ApiErrorBody; retryAfterSeconds: number | null } };

export interface Prerender {
  /**
   * The answer sent with the page for the hook `id`, as the hook's first state; null when there is none. On the
   * server, a hook with no answer yet hands its load over, for the next render.
   */
  take<T>(id: string, load: () => Promise<T>): AsyncState<T> | null;
  /**
   * A value worked out while rendering, without waiting: the server computes it and sends it with the page, the
   * browser hydrates with the sent one (null when there is none) rather than working it out again.
   */
  keep<T>(id: string, compute: () => T): T | null;
}

/** Given by the server render, and by the browser while it hydrates a server-rendered page; null otherwise. */
export const PrerenderContext = createContext<Prerender | null>(null);

export function stateOf<T>(seed: Seed): AsyncState<T> {
  if ('data' in seed) return { status: 'ready', data: seed.data as T };
  const { status, body, retryAfterSeconds } = seed.error;
  return { status: 'error', error: new ApiError(status, body, retryAfterSeconds) };
}

/** A load's outcome as a seed; null when it is not an answer of the API (the page is then rendered in the browser). */
export function seedOf(outcome: PromiseSettledResult<unknown>): Seed | null {
  if (outcome.status === 'fulfilled') return { data: outcome.value };
  const error: unknown = outcome.reason;
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500) return null;
  return { error: { status: error.status, body: error.body, retryAfterSeconds: error.retryAfterSeconds } };
}

/** The browser's side: the answers sent with the page, each given to the hook that asked for it on the server. */
export function seededPrerender(seeds: Record<string, Seed>): Prerender & { done: () => void } {
  const known = new Map(Object.entries(seeds));
  return {
    take: <T>(id: string) => {
      const seed = known.get(id);
      return seed ? stateOf<T>(seed) : null;
    },
    keep: <T>(id: string) => {
      const seed = known.get(id);
      return seed && 'data' in seed ? (seed.data as T) : null;
    },
    // On another page, hooks (which may have the same ids) load as usual.
    done: () => known.clear(),
  };
}

/** The id of the JSON block that carries the answers in the page. */
export const SEEDS_ELEMENT_ID = 'prerendered-data';
