import { useCallback, useEffect, useRef, useState } from 'react';
import { getQuote, type PurchaseChoice, type QuoteAnswer } from '../../api/commerce';

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
 */
export function useQuote(productId: string, choice: PurchaseChoice | null, delayMs = 250): QuoteState {
  const [answer, setAnswer] = useState<QuoteAnswer | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [pending, setPending] = useState(true);
  const [attempt, setAttempt] = useState(0);
  const loadedOnce = useRef(false);
  const key = choice && JSON.stringify(choice);

  useEffect(() => {
    if (!choice) {
      setPending(false);
      return;
    }
    setPending(true);
    const controller = new AbortController();
    const timer = setTimeout(
      () => {
        getQuote(productId, choice, controller.signal).then(
          (next) => {
            if (controller.signal.aborted) return;
            loadedOnce.current = true;
            setAnswer(next);
            setError(null);
            setPending(false);
          },
          (failure: Error) => {
            if (controller.signal.aborted) return;
            setError(failure);
            setPending(false);
          },
        );
      },
      loadedOnce.current ? delayMs : 0,
    );
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [productId, key, attempt, delayMs]); // `choice` is a new object each render; `key` is its content

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { answer, pending, error, retry };
}
