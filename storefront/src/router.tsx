import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type AnchorHTMLAttributes,
  type ComponentType,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { isOutsideStorefront } from './redirects';

/*
 * The storefront's router: the handful of react-router's APIs the pages use (Link, Navigate, Outlet, useParams,
 * useLocation, useNavigate, useSearchParams), with the same names and meanings, over the History API.
 *
 * Why not react-router itself: its runtime is at least 12.5 KB gzip (29 KB for the data router) and react-dom is
 * already 66 KB, so with it the home page could not load in under 80 KB of JavaScript. This file is about 1.5 KB.
 * Only absolute paths ("/x?y") are supported; that is all the storefront links to.
 */

export interface Location {
  pathname: string;
  search: string;
  hash: string;
  /** Bumped on every navigation, so two visits to the same address are two locations. */
  key: number;
}

export interface NavigateOptions {
  replace?: boolean;
  /** Keep the scroll position (the page only changed its query, e.g. a coupon code). */
  preventScrollReset?: boolean;
}

type Navigate = (to: string | number, options?: NavigateOptions) => void;

export interface Route {
  /** "/", "/products/:slugOrId", "*" (anything else). */
  path: string;
  Page: ComponentType;
}

interface RouterState {
  location: Location;
  navigate: Navigate;
}

const RouterContext = createContext<RouterState | null>(null);
const MatchContext = createContext<{ params: Record<string, string>; outlet: ReactNode }>({ params: {}, outlet: null });

let keys = 0;
const current = (): Location => ({ pathname: window.location.pathname, search: window.location.search, hash: window.location.hash, key: ++keys });

/** The params of `path` when it matches `pattern` ("/teams/:purchaseId"), or null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  if (pattern === '*') return {};
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/').filter(Boolean);
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (const [i, segment] of want.entries()) {
    const value = have[i]!;
    if (segment.startsWith(':')) {
      try {
        params[segment.slice(1)] = decodeURIComponent(value);
      } catch {
        return null; // a malformed escape is no address of ours
      }
    } else if (segment !== value) {
      return null;
    }
  }
  return params;
}

/**
 * Renders `layout` with the first route matching the address as its <Outlet />; follows links, back and forward.
 * A new page starts at the top; back and forward leave scrolling to the browser.
 */
export function Router({ routes, layout: Layout }: { routes: Route[]; layout: ComponentType }) {
  const [location, setLocation] = useState(current);

  useEffect(() => {
    const onPop = () => setLocation(current());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  const navigate = useCallback<Navigate>((to, options = {}) => {
    if (typeof to === 'number') return window.history.go(to);
    const samePage = to.split(/[?#]/)[0] === window.location.pathname;
    if (options.replace) window.history.replaceState(null, '', to);
    else window.history.pushState(null, '', to);
    if (!samePage && !options.preventScrollReset) window.scrollTo(0, 0);
    setLocation(current());
  }, []);

  let match: { Page: ComponentType; params: Record<string, string> } | null = null;
  for (const route of routes) {
    const params = matchPath(route.path, location.pathname);
    if (params) {
      match = { Page: route.Page, params };
      break;
    }
  }

  const router = useMemo(() => ({ location, navigate }), [location, navigate]);
  const outlet = match ? <match.Page /> : null;
  return (
    <RouterContext value={router}>
      <MatchContext value={{ params: match?.params ?? {}, outlet }}>
        <Layout />
      </MatchContext>
    </RouterContext>
  );
}

function useRouter(): RouterState {
  const router = useContext(RouterContext);
  if (!router) throw new Error('router hooks must be used inside <Router>');
  return router;
}

export const useLocation = (): Location => useRouter().location;
export const useNavigate = (): Navigate => useRouter().navigate;
export const useParams = (): Record<string, string | undefined> => useContext(MatchContext).params;

/** Where the layout shows the page of the current address. */
export function Outlet() {
  return useContext(MatchContext).outlet;
}

type SearchInit = URLSearchParams | ((previous: URLSearchParams) => URLSearchParams);

export function useSearchParams(): [URLSearchParams, (next: SearchInit, options?: NavigateOptions) => void] {
  const { location, navigate } = useRouter();
  const params = useMemo(() => new URLSearchParams(location.search), [location.search]);
  const setParams = useCallback(
    (next: SearchInit, options?: NavigateOptions) => {
      const value = typeof next === 'function' ? next(new URLSearchParams(window.location.search)) : next;
      const query = value.toString();
      navigate(`${window.location.pathname}${query ? `?${query}` : ''}${window.location.hash}`, options);
    },
    [navigate],
  );
  return [params, setParams];
}

/** Goes to `to` once rendered (e.g. to the sign-in page from a page that needs it). */
export function Navigate({ to, replace }: { to: string; replace?: boolean }) {
  const navigate = useNavigate();
  useEffect(() => navigate(to, { replace }), [navigate, to, replace]);
  return null;
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: string; replace?: boolean };

const isPlainClick = (event: MouseEvent<HTMLAnchorElement>) =>
  !event.defaultPrevented && event.button === 0 && !event.metaKey && !event.altKey && !event.ctrlKey && !event.shiftKey;

/**
 * An ordinary link (it opens in a new tab, copies, works without JavaScript) that navigates in place when clicked;
 * the console and the API are other apps, so links there load the page.
 */
export function Link({ to, replace, onClick, target, ...rest }: LinkProps) {
  const navigate = useNavigate();
  return (
    <a
      {...rest}
      href={to}
      target={target}
      onClick={(event) => {
        onClick?.(event);
        if (!isPlainClick(event) || (target && target !== '_self') || isOutsideStorefront(to)) return;
        event.preventDefault();
        navigate(to, { replace });
      }}
    />
  );
}
