/** A path on this site, or null: no other origin, no protocol-relative `//host`, no backslash tricks. */
export function safeRedirectPath(target: string | null | undefined): string | null {
  if (!target || target.length > 2000) return null;
  if (!target.startsWith('/') || target.startsWith('//') || target.includes('\\')) return null;
  return target;
}

/** The sign-in page, coming back to `redirectTo` afterwards; `email` fills in its email field. */
export function loginPath(redirectTo: string, email?: string): string {
  return `/login?${new URLSearchParams(email ? { redirectTo, email } : { redirectTo })}`;
}

/** The console (/admin) is a separate app: the storefront's router cannot show it. */
export function isOutsideStorefront(path: string): boolean {
  return path === '/admin' || path.startsWith('/admin/') || path.startsWith('/admin?') || path.startsWith('/api/');
}
