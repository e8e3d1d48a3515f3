import { Component, Suspense, useEffect, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { isApiError } from './api/client';
import { signOut } from './api/identity';
import { getGlobalPrefs, prefsOf } from './api/prefs';
import { applyDisplay } from './display';
import { useHere } from './navigation';
import { loginPath } from './redirects';
import { SearchBox } from './search/SearchBox';
import { useSchool } from './school';
import { SiteFooter } from './SiteFooter';
import { ViewAsBanner } from './ViewAsBanner';
import { useSession } from './session';

/** The site header, in <main> the page for the address (`children`: the routes), and the school's footer. */
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
      <ViewAsBanner />
      <SiteHeader />
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
      <SiteFooter />
    </>
  );
}

/**
 * The brand and the navigation. On a phone (styles.css: below 640 px) a signed-in learner's links would wrap to
 * three rows, so they fold into a panel behind a "Menu" button; wider screens show them in the row and never see
 * the button. A visitor has only "Sign in", which fits beside the brand.
 */
function SiteHeader() {
  const { state } = useSession();
  const [pathname] = useLocation();
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const signedIn = state.status === 'signed-in';

  // A link that goes to another page closes the menu; the Layout then moves the focus to the new page.
  useEffect(() => setOpen(false), [pathname]);

  // Escape closes it from anywhere, and the focus goes back to the button that opened it.
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  // A link to the page already shown changes no address: close here, and keep the focus on the button.
  function onMenuClick(event: MouseEvent<HTMLElement>) {
    const link = (event.target as HTMLElement).closest('a');
    if (!link) return;
    setOpen(false);
    if (link.getAttribute('href') === pathname) buttonRef.current?.focus();
  }

  return (
    <header className={signedIn ? 'site-header has-menu' : 'site-header'}>
      <Brand />
      <SearchBox />
      {signedIn && (
        <button
          ref={buttonRef}
          type="button"
          className="menu-button"
          aria-expanded={open}
          aria-controls="site-menu"
          onClick={() => setOpen(!open)}
        >
          <svg viewBox="0 0 16 16" width="18" height="18" aria-hidden="true" focusable="false">
            <path
              d={open ? 'M3.5 3.5l9 9M12.5 3.5l-9 9' : 'M2 4h12M2 8h12M2 12h12'}
              stroke="currentColor"
              strokeWidth="1.8"
              strokeLinecap="round"
            />
          </svg>
          Menu
        </button>
      )}
      {/* Not a dialog: the panel pushes the page down and the page stays usable, so no focus trap. */}
      <div id="site-menu" className="site-menu" data-open={open || undefined} onClick={onMenuClick}>
        <MainNav />
        <AccountNav />
      </div>
    </header>
  );
}

/** The school's logo (its name as the text read out), else its name, leading home. */
function Brand() {
  const { name, logo } = useSchool();
  return (
    <Link to="/" className="brand">
      {logo ? (
        // The logo's own proportions, drawn at the header’s height (site-frame.css .brand-logo).
        <img className="brand-logo" src={logo.src} alt={name} width={logo.width} height={logo.height} />
      ) : (
        name
      )}
    </Link>
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
      <Link to="/invoices">Invoices</Link>
      {state.hasSubscriptions && <Link to="/subscriptions">Subscriptions</Link>}
      {state.isPayee && <Link to="/earnings">Earnings</Link>}
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
