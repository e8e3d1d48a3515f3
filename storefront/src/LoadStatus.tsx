import type { AsyncState } from './useAsync';

/** The loading line and the "could not load … / Try again" alert that every list page shows. */
export function LoadStatus({ state, retry, what }: { state: AsyncState<unknown>; retry: () => void; what: string }) {
  if (state.status === 'loading') {
    return (
      <p role="status" aria-live="polite" className="loading">
        Loading {what}…
      </p>
    );
  }
  if (state.status === 'error')
    return <RetryAlert text={`We could not load ${what}: ${state.error.message}`} retry={retry} />;
  return null;
}

/** "We could not …: why", announced, with a Try again that repeats the work. */
export function RetryAlert({ text, retry }: { text: string; retry: () => void }) {
  return (
    <div role="alert" className="notice notice-error">
      <p>{text}</p>
      <button type="button" onClick={retry}>
        Try again
      </button>
    </div>
  );
}
