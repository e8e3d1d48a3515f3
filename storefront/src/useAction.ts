import { useState } from 'react';

/**
 * One action at a time: `busy` while it runs, and its failure in words. `explain` words a failure for the person,
 * or returns null when the caller shows it another way (a whole-page notice, a signed-out prompt). `run` resolves
 * true when the action worked, so the caller decides what happens next.
 */
export function useAction(explain: (caught: unknown) => string | null) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run(action: () => Promise<void>): Promise<boolean> {
    setBusy(true);
    setError(null);
    try {
      await action();
      return true;
    } catch (caught) {
      setError(explain(caught));
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, setError, run };
}
