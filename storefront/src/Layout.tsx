import { useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { isApiError } from './api/client';
import { signOut } from './api/identity';
import { loginPath } from './redirects';
import { useSession } from './session';

export function Layout() {
  return (
    <>
      <a className="skip-link" href="#main">Skip to content</a>
      <header className="site-header">
        <Link to="/" className="brand">Courses</Link>
        <AccountNav />
      </header>
      <main id="main" className="container">
        <Outlet />
      </main>
    </>
  );
}

/** "Sign in" for visitors; the email, "My purchases", "My devices" and "Sign out" for signed-in learners. */
function AccountNav() {
  const { state } = useSession();
  const location = useLocation();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  if (state.status === 'loading') return null;
  if (state.status !== 'signed-in') {
    const here = location.pathname + location.search;
    const onLoginPage = location.pathname === '/login' || location.pathname.startsWith('/login/');
    return (
      <nav aria-label="Account" className="account-nav">
        <Link to={onLoginPage || here === '/' ? '/login' : loginPath(here)}>Sign in</Link>
      </nav>
    );
  }

  async function handleSignOut() {
    setBusy(true);
    setFailed(false);
    try {
      await signOut();
    } catch (error) {
      // Already signed out elsewhere (401) is fine; anything else leaves the session in place.
      if (!isApiError(error, 'unauthenticated')) {
        setFailed(true);
        setBusy(false);
        return;
      }
    }
    // A full page load: nothing of the signed-in session stays in memory, and pages that need sign-in are left.
    window.location.assign('/');
  }

  return (
    <nav aria-label="Account" className="account-nav">
      <span className="account-email">{state.user.email}</span>
      <Link to="/purchases">My purchases</Link>
      <Link to="/devices">My devices</Link>
      <button type="button" className="button-quiet" onClick={handleSignOut} disabled={busy}>
        {busy ? 'Signing out…' : 'Sign out'}
      </button>
      {failed && (
        <span role="alert" className="account-error">
          Could not sign out. Try again.
        </span>
      )}
    </nav>
  );
}
