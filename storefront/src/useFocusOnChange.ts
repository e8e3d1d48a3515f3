import { useEffect, useRef } from 'react';

/**
 * Moves focus to the returned element (a heading with tabIndex={-1}) whenever `key` changes, but not on
 * the first render, so keyboard and screen-reader users land on the new state of the page.
 */
export function useFocusOnChange<T extends HTMLElement>(key: string) {
  const ref = useRef<T>(null);
  const previous = useRef(key);
  useEffect(() => {
    if (previous.current === key) return;
    previous.current = key;
    ref.current?.focus();
  }, [key]);
  return ref;
}
