import { useCallback, useContext, useEffect, useId, useRef, useState } from 'react';
import { holdsSession } from '../../api/client';
import { getQuote, type PurchaseChoice, type QuoteAnswer } from '../../api/commerce';
import { PrerenderContext } from '../../prerender';
import { whenIdle } from '../../whenIdle';

export interface QuoteState {
  /** The latest answer; kept on screen (dimmed) while the next one loads so nothing jumps. */
  answer: QuoteAnswer | null;
  /** The answer does not match the current choice yet (waiting out the debounce, or loading). */
  pending: boolean;
  error: Error | null;
  retry: () => void;
}

/**
 * Prices `choice` with the API, again on every change: debounced by `delayMs` (the first load is immediate),
 * and an answer that arrives after a newer change is dropped. A null choice (an invalid seat count) asks nothing.
 * On a server-rendered page the first answer came with the HTML (useSeededQuote).
 */
export function useQuote(productId: string, choice: PurchaseChoice | null, delayMs = 250): QuoteState {
  const seeded = useSeededQuote(productId, choice);
  const [answer, setAnswer] = useState<QuoteAnswer | null>(seeded);
  const [error, setError] = useState<Error | null>(null);
  const [pending, setPending] = useState(seeded === null);
  const [attempt, setAttempt] = useState(0);
  const loadedOnce = useRef(false);
  // The server's price is a visitor's: asked again, quietly (shown as it is until the answer replaces it).
  const quietly = useRef(seeded !== null);
  const key = choice && JSON.stringify(choice);

  useEffect(() => {
    if (!choice) {
      setPending(false);
      return;
    }
    const quiet = quietly.current;
    if (!quiet) setPending(true);
    quietly.current = false;
    const controller = new AbortController();
    const ask = () => {
      getQuote(productId, choice, controller.signal).then(
        (next) => {
          if (controller.signal.aborted) return;
          loadedOnce.current = true;
          // The same price again (the server's was this visitor's too) changes nothing on the page: no render.
          setAnswer((shown) => (shown && JSON.stringify(shown) === JSON.stringify(next) ? shown : next));
          setError(null);
          setPending(false);
        },
        (failure: Error) => {
          if (controller.signal.aborted) return;
          setError(failure);
          setPending(false);
        },
      );
    };
    // The server's price is a visitor's: a visitor's is asked again once the page is idle, after its start-up work;
    // someone signed in (an owner, an upgrader) may be shown the wrong price, strike-through and label, so at once.
    if (quiet && !holdsSession()) return whenIdleThenAbort(ask, controller);
    const timer = setTimeout(ask, loadedOnce.current ? delayMs : 0);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [productId, key, attempt, delayMs]); // `choice` is a new object each render; `key` is its content

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { answer, pending, error, retry };
}

function whenIdleThenAbort(ask: () => void, controller: AbortController): () => void {
  const cancel = whenIdle(ask);
  return () => {
    cancel();
    controller.abort();
  };
}

/**
 * The first choice's price as the server rendered it (so the page's HTML has the price, the sale's strike-through
 * and its label), sent with the page like useAsync's answers. Only for a choice without a coupon: a code is looked
 * up per visitor (and limited per network), so a page with one is priced in the browser.
 */
function useSeededQuote(productId: string, choice: PurchaseChoice | null): QuoteAnswer | null {
  const id = useId();
  const prerender = useContext(PrerenderContext);
  const [seed] = useState(() =>
    choice && !choice.coupon ? (prerender?.take(id, () => getQuote(productId, choice)) ?? null) : null,
  );
  return seed?.status === 'ready' ? seed.data : null;
}
