/** Where a sign-in may come back to: the API's one rule (no other origin, no `//host`, `\` or control characters). */
export { safeRedirect } from '../../api/src/shared/safe-redirect';

/** The sign-in page, coming back to `redirectTo` afterwards; `email` fills in its email field. */
export function loginPath(redirectTo: string, email?: string): string {
  return `/login?${new URLSearchParams(email ? { redirectTo, email } : { redirectTo })}`;
}

/** The console (/admin) is a separate app: the storefront's router cannot show it. */
export function isOutsideStorefront(path: string): boolean {
  return path === '/admin' || path.startsWith('/admin/') || path.startsWith('/admin?') || path.startsWith('/api/');
}
