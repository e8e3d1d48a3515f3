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

/**
 * Why a sign-in was asked for, read from the page it comes back to: a team invite (/invites/:code) or a transfer
 * offer (/transfers/:id); null for any other page. The sign-in page then says so, and fills in the address it can.
 */
export type SignInReason = { kind: 'invite'; code: string } | { kind: 'transfer'; transferId: string };

export function signInReason(redirectTo: string | null): SignInReason | null {
  const path = redirectTo?.split(/[?#]/)[0] ?? '';
  const match = /^\/(invites|transfers)\/([^/]+)$/.exec(path);
  if (!match) return null;
  let id: string;
  try {
    id = decodeURIComponent(match[2]!);
  } catch {
    return null;
  }
  return match[1] === 'invites' ? { kind: 'invite', code: id } : { kind: 'transfer', transferId: id };
}
