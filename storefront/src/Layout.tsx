import { Component, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { isApiError } from './api/client';
import { signOut } from './api/identity';
import { getGlobalPrefs, prefsOf } from './api/prefs';
import { applyDisplay } from './display';
import { useHere } from './navigation';
import { loginPath } from './redirects';
import { useSession } from './session';

/** The site header and, in <main>, the page for the address (`children`: the routes). */
export function Layout({ children }: { children: ReactNode }) {
  const [pathname] = useLocation();
  const mainRef = useRef<HTMLElement>(null);
  const shownPath = useRef(pathname);
  useSavedDisplay();

  // A new page: keyboard and screen-reader users start at its content, not at the link that is gone.
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    mainRef.current?.focus({ preventScroll: true });
  }, [pathname]);

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <Link to="/" className="brand">
          Courses
        </Link>
        <MainNav />
        <AccountNav />
      </header>
      <main id="main" className="container" ref={mainRef} tabIndex={-1}>
        <PageLoadBoundary key={pathname}>
          <Suspense
            fallback={
              <p role="status" className="loading">
                Loading the page…
              </p>
            }
          >
            {children}
          </Suspense>
        </PageLoadBoundary>
      </main>
    </>
  );
}

/** The signed-in learner's theme and reading size from their preferences (this browser's copy paints first). */
function useSavedDisplay() {
  const { state } = useSession();
  const userId = state.status === 'signed-in' ? state.user.id : null;
  useEffect(() => {
    if (!userId) return;
    let live = true;
    getGlobalPrefs().then(
      (fields) => {
        if (!live) return;
        const prefs = prefsOf(fields);
        applyDisplay({ theme: prefs.theme, fontSize: prefs.reading.fontSize });
      },
      () => {}, // the remembered look stays; the settings page reports problems
    );
    return () => {
      live = false;
    };
  }, [userId]);
}

/**
 * A page's code could not be loaded (offline, or a new version was deployed meanwhile): say so and offer a
 * reload instead of a blank page.
 */
class PageLoadBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div role="alert" className="notice notice-error">
        <p>This page could not be loaded. Check your connection, then reload.</p>
        <button type="button" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    );
  }
}

/** Where signed-in learners study: their courses and bookmarks. */
function MainNav() {
  const { state } = useSession();
  const [pathname] = useLocation();
  if (state.status !== 'signed-in') return null;
  const current = (path: string) => (pathname === path ? 'page' : undefined);
  return (
    <nav aria-label="Main" className="main-nav">
      <Link to="/learning" aria-current={current('/learning')}>
        My learning
      </Link>
      <Link to="/bookmarks" aria-current={current('/bookmarks')}>
        Bookmarks
      </Link>
    </nav>
  );
}

/** "Sign in" for visitors; the email, "My purchases", "My devices", "Settings" and "Sign out" for signed-in learners. */
function AccountNav() {
  const { state } = useSession();
  const [pathname] = useLocation();
  const here = useHere();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  if (state.status === 'loading') return null;
  if (state.status !== 'signed-in') {
    const onLoginPage = pathname === '/login' || pathname.startsWith('/login/');
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
      <Link to="/settings">Settings</Link>
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
