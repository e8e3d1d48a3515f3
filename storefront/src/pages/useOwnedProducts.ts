import { useMemo } from 'react';
import { listOwnedProductIds } from '../api/catalog';
import { useSession } from '../session';
import { useAsync } from '../useAsync';

/**
 * The products the signed-in learner holds themselves; an empty set when signed out, null while not known yet (the
 * session or the answer still loading). Asked only once someone is signed in.
 */
export function useOwnedProducts(): ReadonlySet<string> | null {
  const { state } = useSession();
  const userId = state.status === 'signed-in' ? state.user.id : null;
  const known = state.status !== 'loading';
  // An array, not a Set: a server-rendered page carries the answer as JSON.
  const owned = useAsync(async () => (userId ? listOwnedProductIds() : []), [userId]);
  const ids = owned.status === 'ready' ? owned.data : null;
  const set = useMemo(() => new Set(ids ?? []), [ids]);
  if (!known || owned.status === 'loading') return null;
  return set;
}
