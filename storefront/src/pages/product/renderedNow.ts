import { useContext, useId, useState } from 'react';
import { PrerenderContext } from '../../prerender';

/**
 * The time the server rendered the page, for what counts down from it (a sale's time left): the server reads its
 * clock once and sends the reading with the page's answers, so the browser hydrates the same text, then counts from
 * its own clock. Null when the page was not rendered on the server (arriving from another page of the app).
 */
export function useRenderedNow(): number | null {
  // To the minute: the page's HTML (and its ETag) then stays the same for a minute, not a second; the browser counts
  // from its own clock at once, and a page read without scripts is a snapshot either way.
  return useServerRendered(() => Math.floor(Date.now() / 60_000) * 60_000);
}

/**
 * What the server worked out while rendering the page, sent with it, so the browser hydrates the same without
 * working it out again (a date written in a time zone costs a phone's first Intl formatter). Null when the page was
 * not rendered on the server.
 */
export function useServerRendered<T>(compute: () => T): T | null {
  const id = useId();
  const prerender = useContext(PrerenderContext);
  const [kept] = useState(() => prerender?.keep(id, compute) ?? null);
  return kept;
}
