import { useCallback, useContext, useEffect, useId, useRef, useState } from 'react';
import { PrerenderContext } from './prerender';
import { useSession } from './session';

export type AsyncState<T> = { status: 'loading' } | { status: 'error'; error: Error } | { status: 'ready'; data: T };

const sameDeps = (a: unknown[], b: unknown[]) => a.length === b.length && a.every((v, i) => Object.is(v, b[i]));

/**
 * Runs a load on mount; `retry` runs it again (for error states that offer "Try again").
 *
 * On a server-rendered page the first answer came with the HTML (see prerender.ts): the hook starts with it and does
 * not ask again. That answer is what a signed-out visitor sees (the page's HTML is the same for everyone): once the
 * session turns out to be signed in, the load runs again and its answer replaces the shown one without a loading
 * state. A component that copies what it shows into its own state keys on what it copies.
 */
export function useAsync<T>(load: () => Promise<T>, deps: unknown[] = []): AsyncState<T> & { retry: () => void } {
  const id = useId();
  const prerender = useContext(PrerenderContext);
  const [seed] = useState(() => prerender?.take(id, load) ?? null);
  const [state, setState] = useState<AsyncState<T>>(seed ?? { status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  // While these are still the deps, the seed is the answer.
  const seededFor = useRef<unknown[] | null>(seed && [0, ...deps]);
  const signedIn = useSession().state.status === 'signed-in';

  useEffect(() => {
    if (seededFor.current && sameDeps(seededFor.current, [attempt, ...deps])) return;
    seededFor.current = null;
    let live = true;
    setState({ status: 'loading' });
    load().then(
      (data) => live && setState({ status: 'ready', data }),
      (error: Error) => live && setState({ status: 'error', error }),
    );
    return () => {
      live = false;
    };
  }, [attempt, ...deps]); // `load` is recreated each render; callers list what it depends on

  useEffect(() => {
    if (!signedIn || !seededFor.current) return;
    let live = true;
    load().then(
      (data) => {
        if (!live || !seededFor.current) return; // the deps changed meanwhile: that load's answer is the one
        seededFor.current = null;
        setState({ status: 'ready', data });
      },
      () => {}, // the signed-out answer stays; a later retry or change asks again
    );
    return () => {
      live = false;
    };
  }, [signedIn]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...state, retry };
}
