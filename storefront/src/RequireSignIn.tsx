import type { ReactNode } from 'react';
import { Navigate, useLocation } from './router';
import type { StoreUser } from './api/identity';
import { loginPath } from './redirects';
import { useSession } from './session';

/** Renders `children` with the signed-in user; sends signed-out visitors to /login and back here afterwards. */
export function RequireSignIn({ children }: { children: (user: StoreUser) => ReactNode }) {
  const { state, refresh } = useSession();
  const location = useLocation();
  switch (state.status) {
    case 'loading':
      return (
        <p role="status" className="loading">
          Checking that you are signed in…
        </p>
      );
    case 'signed-out':
      return <Navigate to={loginPath(location.pathname + location.search)} replace />;
    case 'error':
      return (
        <div role="alert" className="notice notice-error">
          <p>We could not check that you are signed in: {state.error.message}</p>
          <button type="button" onClick={refresh}>
            Try again
          </button>
        </div>
      );
    case 'signed-in':
      return children(state.user);
  }
}
