import { safeRedirect } from '../../../api/src/shared/safe-redirect';

/** Where a console sign-in link comes back to when no page was asked for: the console's dashboard. */
export const SIGN_IN_REDIRECT = '/admin/';

/**
 * The console page a signed-out visit was sent to the login page from (react-admin keeps it in the login page's
 * location state), as a path of the console's router; '/' (the dashboard) when there is none or it is not a path.
 */
export function pageBeforeLogin(state: unknown): string {
  const { nextPathname, nextSearch } = (state ?? {}) as { nextPathname?: unknown; nextSearch?: unknown };
  if (typeof nextPathname !== 'string' || nextPathname === '/login') return '/';
  return safeRedirect(`${nextPathname}${typeof nextSearch === 'string' ? nextSearch : ''}`, '/');
}

/** The address the emailed link comes back to for a console page (the console routes after the #). */
export function signInRedirectFor(page: string): string {
  return page === '/' ? SIGN_IN_REDIRECT : safeRedirect(`${SIGN_IN_REDIRECT}#${page}`, SIGN_IN_REDIRECT);
}
