import { useEffect, useRef, useState } from 'react';
import { useAction } from './useAction';

/**
 * A destructive action asked before it runs: `ask` shows the question, focus moves to the action's button, Cancel
 * puts focus back on the button that asked. `action` throws to fail; `explain` words the failure for the person.
 * `actions` are the props of ConfirmActions.
 */
export function useConfirmation(action: () => Promise<void>, explain: (caught: unknown) => string) {
  const [confirming, setConfirming] = useState(false);
  const { busy, error, setError, run } = useAction(explain);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const startRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);

  async function onConfirm() {
    if (await run(action)) setConfirming(false);
  }

  function onCancel() {
    setConfirming(false);
    setError(null);
    requestAnimationFrame(() => startRef.current?.focus());
  }

  return {
    confirming,
    ask: () => setConfirming(true),
    startRef,
    actions: { confirmRef, busy, error, onConfirm, onCancel },
  };
}

/** The failure of an action in words: the API's message, or a plain "try again". */
export const failureText = (caught: unknown) =>
  caught instanceof Error ? caught.message : 'Something went wrong. Please try again.';

/** The failure of a named action: "We could not revoke the seat: <why>". */
export const failedTo = (what: string) => (caught: unknown) =>
  `We could not ${what}: ${caught instanceof Error ? caught.message : 'something went wrong. Please try again.'}`;
