/**
 * Runs `work` once the browser has nothing more urgent to do (a page just shown: its hydration, its first paint and
 * the reader's first taps come first), at the latest after `timeoutMs`. Returns a cancel, for an effect's cleanup.
 * Safari has no requestIdleCallback: there a short timer stands in.
 */
export function whenIdle(work: () => void, timeoutMs = 2000): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(work, { timeout: timeoutMs });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(work, 50);
  return () => clearTimeout(timer);
}
