// The cookies and headers of signing in, as plain values (identity/http/caller.ts reads who is calling from them).
import type { Context } from 'koa';
import type { Config } from '../config';

export const SESSION_COOKIE = 'lp_session';
/** Readable by the page's script, which echoes it in the X-CSRF-Token header. */
export const CSRF_COOKIE = 'lp_csrf';
export const CSRF_HEADER = 'x-csrf-token';

/** The view-as token (api/src/identity/staff/view-as.ts), beside the staff member's own session. */
export const VIEW_AS_COOKIE = 'lp_view_as';
/** The one write a view-as allows: ending it. */
export const VIEW_AS_END_PATH = '/api/store/view-as/end';

function cookieOptions(config: Pick<Config, 'NODE_ENV'>) {
  return { sameSite: 'lax' as const, secure: config.NODE_ENV === 'production', path: '/', overwrite: true };
}

/** A new session's cookies: its token (HttpOnly) and its CSRF token, which the page's script echoes. */
export function setSessionCookies(
  ctx: Context,
  session: { token: string; csrfToken: string; expires: Date },
  config: Pick<Config, 'NODE_ENV'>,
): void {
  const options = { ...cookieOptions(config), expires: session.expires };
  if (options.secure) ctx.cookies.secure = true; // behind a TLS-terminating proxy the socket itself is plain
  ctx.cookies.set(SESSION_COOKIE, session.token, { ...options, httpOnly: true });
  ctx.cookies.set(CSRF_COOKIE, session.csrfToken, { ...options, httpOnly: false });
}

/** Binds a GitHub sign-in to the browser that started it; only GitHub's redirect back (top-level GET) sends it. */
export const OAUTH_STATE_COOKIE = 'lp_oauth_state';
const OAUTH_STATE_PATH = '/api/store/auth/github';

export function setOAuthStateCookie(ctx: Context, state: string, config: Pick<Config, 'NODE_ENV'>): void {
  const options = { ...cookieOptions(config), path: OAUTH_STATE_PATH, maxAge: 10 * 60 * 1000, httpOnly: true };
  if (options.secure) ctx.cookies.secure = true;
  ctx.cookies.set(OAUTH_STATE_COOKIE, state, options);
}

export function clearOAuthStateCookie(ctx: Context, config: Pick<Config, 'NODE_ENV'>): void {
  const options = { ...cookieOptions(config), path: OAUTH_STATE_PATH, httpOnly: true };
  if (options.secure) ctx.cookies.secure = true;
  ctx.cookies.set(OAUTH_STATE_COOKIE, null, options);
}

export function clearSessionCookies(ctx: Context, config: Pick<Config, 'NODE_ENV'>): void {
  const options = cookieOptions(config);
  if (options.secure) ctx.cookies.secure = true;
  ctx.cookies.set(SESSION_COOKIE, null, { ...options, httpOnly: true });
  ctx.cookies.set(CSRF_COOKIE, null, { ...options, httpOnly: false });
}

/** The view-as token for a view that lasts until `expires` (HttpOnly: the page's script never reads it). */
export function setViewAsCookie(ctx: Context, token: string, expires: Date, config: Pick<Config, 'NODE_ENV'>): void {
  const options = { ...cookieOptions(config), expires, httpOnly: true };
  if (options.secure) ctx.cookies.secure = true;
  ctx.cookies.set(VIEW_AS_COOKIE, token, options);
}

export function clearViewAsCookie(ctx: Context, config: Pick<Config, 'NODE_ENV'>): void {
  const options = { ...cookieOptions(config), httpOnly: true };
  if (options.secure) ctx.cookies.secure = true;
  ctx.cookies.set(VIEW_AS_COOKIE, null, options);
}
