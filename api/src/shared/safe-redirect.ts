/*
 * Where a browser may be sent back to after signing in (a `redirectTo`): the one rule, used by the API (stored with
 * a sign-in link or a GitHub sign-in), the storefront (its login page's "Go back" link, the page an emailed link
 * finishes on) and the console (the page it comes back to). Plain TypeScript with no Node or browser dependency:
 * the two apps import this file as it is.
 */

/** Longer than any address the two apps make; a longer one is an attack or a mistake. */
export const MAX_REDIRECT_LENGTH = 2000;

/** C0 controls, DEL and C1 controls: a browser drops tab, CR and LF from a URL, so `/\t/evil.example` is `//evil.example`. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** A base no real address has: resolving against it tells whether a target stays on the site it is used on. */
const HOME = 'https://same-site.invalid';

function isLocalPath(path: string): boolean {
  if (!path.startsWith('/') || path.startsWith('//') || path.includes('\\') || CONTROL.test(path)) return false;
  try {
    return new URL(path, HOME).origin === HOME;
  } catch {
    return false;
  }
}

/**
 * `target` when it is a path on this site, else `fallback` ('/' unless given): no other origin, no scheme
 * (`javascript:`, `https:`), no protocol-relative `//host`, no backslash (browsers read `/\host` as `//host`), no
 * control character, nothing longer than MAX_REDIRECT_LENGTH. The same holds for the target decoded once, so a page
 * or a server that decodes it again (`/%2F%2Fevil.example`, `/%09/evil.example`) cannot be led off the site either.
 */
export function safeRedirect(target: unknown): string;
export function safeRedirect<F>(target: unknown, fallback: F): string | F;
export function safeRedirect(target: unknown, fallback: unknown = '/'): unknown {
  if (typeof target !== 'string' || target.length > MAX_REDIRECT_LENGTH || !isLocalPath(target)) return fallback;
  let decoded: string;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    return fallback; // a malformed escape (`%E0`): no page of ours makes one
  }
  return isLocalPath(decoded) ? target : fallback;
}
