import type { ReactNode } from 'react';
import { Redirect } from 'wouter';
import type { StoreUser } from './api/identity';
import { useHere } from './navigation';
import { loginPath } from './redirects';
import { useSession } from './session';
import { RetryAlert } from './LoadStatus';

/** Renders `children` with the signed-in user; sends signed-out visitors to /login and back here afterwards. */
export function RequireSignIn({ children }: { children: (user: StoreUser) => ReactNode }) {
  const { state, refresh } = useSession();
  const here = useHere();
  switch (state.status) {
    case 'loading':
      return (
        <p role="status" className="loading">
          Checking that you are signed in…
        </p>
      );
    case 'signed-out':
      return <Redirect to={loginPath(here)} replace />;
    case 'error':
      return <RetryAlert text={`We could not check that you are signed in: ${state.error.message}`} retry={refresh} />;
    case 'signed-in':
      return children(state.user);
  }
}
