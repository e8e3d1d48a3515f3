import { useLocation, useSearch, type AroundNavHandler } from 'wouter';
import { isOutsideStorefront } from './redirects';

/*
 * The storefront routes with wouter (https://github.com/molefrog/wouter, about 3 KB gzip with its dependencies;
 * react-router would not fit the home page's 80 KB JavaScript budget). Pages import Link, Redirect, useLocation,
 * useParams and useSearchParams from 'wouter' directly; this file holds the storefront's two additions.
 */

/**
 * Wraps every in-app navigation (links, redirects, `useLocation()[1]`, `useSearchParams()[1]`):
 * - the console (/admin) and the API are other apps, so going there loads the page;
 * - a new page starts at the top, while a change of the query alone (e.g. the product page's coupon code) keeps
 *   the scroll position. Back and forward do not come here: the browser restores their scroll position.
 * Focus moves to the new page's content in the Layout, for back and forward too.
 */
export const storefrontNav: AroundNavHandler = (navigate, to, options) => {
  if (isOutsideStorefront(to)) {
    if (options?.replace) window.location.replace(to);
    else window.location.assign(to);
    return;
  }
  const before = window.location.pathname;
  navigate(to, options);
  if (window.location.pathname !== before) window.scrollTo(0, 0);
};

/** The address shown, path and query ("/products/x?code=A"), e.g. to come back to it after signing in. */
export function useHere(): string {
  const [pathname] = useLocation();
  const search = useSearch();
  return search ? `${pathname}?${search}` : pathname;
}
