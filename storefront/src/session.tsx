import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { holdsSession, isApiError } from './api/client';
import { getCurrentUser, type StoreUser, type ViewAsInfo } from './api/identity';
import { deviceTimeZone, putTimeZone } from './api/prefs';

export type SessionState =
  | { status: 'loading' }
  | { status: 'signed-out' }
  /**
   * `isPayee`: paid from revenue splits, so the account menu links their earnings; `hasSubscriptions`: subscribed to
   * a membership, so it links their subscriptions.
   */
  | {
      status: 'signed-in';
      user: StoreUser;
      viewAs?: ViewAsInfo | null;
      isPayee?: boolean;
      hasSubscriptions?: boolean;
    }
  | { status: 'error'; error: Error };

interface Session {
  state: SessionState;
  /** Asks the API again who is signed in (after a 401, or "Try again"). */
  refresh: () => void;
  signedIn: (user: StoreUser) => void;
}

const SessionContext = createContext<Session | null>(null);

/** Who is signed in, from GET /api/store/me, loaded once and shared by the header and the pages. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    // The answer is shown as a transition: on a server-rendered page it comes while React is still hydrating the
    // page's parts, and an urgent change of context would make it hydrate all of them at once, in one long task
    // that holds up the phone's first tap; a transition lets it hydrate in short slices first.
    const settle = (next: SessionState) => startTransition(() => setState(next));
    if (!holdsSession()) {
      settle({ status: 'signed-out' });
      return;
    }
    let live = true;
    getCurrentUser().then(
      ({ user, viewAs, isPayee, hasSubscriptions }) =>
        live && settle({ status: 'signed-in', user, viewAs, isPayee, hasSubscriptions }),
      (error: Error) =>
        live && settle(isApiError(error, 'unauthenticated') ? { status: 'signed-out' } : { status: 'error', error }),
    );
    return () => {
      live = false;
    };
  }, [attempt]);

  useEffect(() => {
    // Not while support views the account: that is the person's own choice to make.
    if (state.status === 'signed-in' && !state.viewAs) offerDeviceTimeZone(state.user.id);
  }, [state]);

  const refresh = useCallback(() => {
    setState({ status: 'loading' });
    setAttempt((n) => n + 1);
  }, []);
  // A changed name keeps what the session knew of earnings and subscriptions; a fresh sign-in does not know them
  // yet (below).
  const signedIn = useCallback(
    (user: StoreUser) =>
      setState((before) =>
        before.status === 'signed-in' && before.user.id === user.id
          ? { status: 'signed-in', user, isPayee: before.isPayee, hasSubscriptions: before.hasSubscriptions }
          : { status: 'signed-in', user },
      ),
    [],
  );

  // A fresh sign-in's answer names the person only: whether they earn (the menu's Earnings link) is asked of
  // /me at once, quietly, rather than on the next load.
  const unknownPayee = state.status === 'signed-in' && state.isPayee === undefined ? state.user.id : null;
  useEffect(() => {
    if (!unknownPayee) return;
    let live = true;
    getCurrentUser().then(
      ({ user, isPayee, hasSubscriptions }) =>
        live &&
        setState((now) =>
          now.status === 'signed-in' && now.user.id === user.id && now.isPayee === undefined
            ? { ...now, isPayee, hasSubscriptions }
            : now,
        ),
      () => undefined, // no link until the next load: the page itself still answers at /earnings
    );
    return () => {
      live = false;
    };
  }, [unknownPayee]);
  const session = useMemo(() => ({ state, refresh, signedIn }), [state, refresh, signedIn]);

  return <SessionContext value={session}>{children}</SessionContext>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession must be used inside <SessionProvider>');
  return session;
}

/**
 * Once per tab and person: the device's time zone, for the account's emails unless the person chose one in settings
 * (the API keeps a chosen one). Best effort: emails fall back to UTC, which they name.
 */
function offerDeviceTimeZone(userId: string): void {
  const key = `time-zone-offered:${userId}`;
  try {
    if (sessionStorage.getItem(key)) return;
    sessionStorage.setItem(key, '1');
  } catch {
    // Storage blocked: offering again on each load is harmless.
  }
  putTimeZone(deviceTimeZone(), true).catch(() => undefined);
}
