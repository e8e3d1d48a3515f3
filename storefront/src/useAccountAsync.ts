import { useEffect } from 'react';
import { isApiError } from './api/client';
import { useSession } from './session';
import { useAsync } from './useAsync';

/**
 * useAsync for a page of the learner's own account: when the answer says the session has ended (signed out in another
 * tab, or everywhere), the session is read again, so RequireSignIn asks them to sign in instead of showing an error.
 */
export function useAccountAsync<T>(load: () => Promise<T>, deps: unknown[] = []) {
  const state = useAsync(load, deps);
  const { refresh } = useSession();
  const failure = state.status === 'error' ? state.error : null;
  useEffect(() => {
    if (isApiError(failure, 'unauthenticated')) refresh();
  }, [failure, refresh]);
  return state;
}
