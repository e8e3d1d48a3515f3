import type { Context, Next } from 'koa';
import type { Config } from '../config';
import type { DeviceFlow } from '../identity/devices/device-flow';
import type { DeviceAccessToken, Session, User } from '../identity/models';
import { sameSecret } from '../identity/secrets';
import type { NewSession, Sessions } from '../identity/sign-in/sessions';
import type { ViewAs, ViewAsGrant } from '../identity/staff/view-as';
import { AppError } from '../shared/errors';

export const SESSION_COOKIE = 'lp_session';
/** Readable by the page's script, which echoes it in the X-CSRF-Token header. */
export const CSRF_COOKIE = 'lp_csrf';
export const CSRF_HEADER = 'x-csrf-token';

export type Auth =
  | {
      method: 'session';
      user: User;
      session: Session;
      /** Support viewing the storefront as `user` (read-only): who is really there, and until when. */
      viewAs?: { grant: ViewAsGrant; staff: User };
    }
  | { method: 'bearer'; user: User; deviceToken: DeviceAccessToken };

/** The view-as token (api/src/identity/staff/view-as.ts), beside the staff member's own session. */
export const VIEW_AS_COOKIE = 'lp_view_as';
/** The one write a view-as allows: ending it. */
export const VIEW_AS_END_PATH = '/api/store/view-as/end';

/** The console keeps the staff member's own identity while they view the storefront as someone in another tab. */
const isConsolePath = (path: string) =>
  path.startsWith('/api/admin') || path === '/admin' || path.startsWith('/admin/');

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Who is calling: a session cookie (browsers) or a bearer token (devices). Browser requests that change
 * state must echo the session's CSRF token; bearer requests carry no ambient credentials and need none.
 */
export function authenticate({
  sessions,
  devices,
  viewAs,
  config,
}: {
  sessions: Sessions;
  devices: DeviceFlow;
  viewAs: ViewAs;
  config: Pick<Config, 'NODE_ENV'>;
}) {
  return async (ctx: Context, next: Next) => {
    const header = ctx.get('authorization');
    if (header) {
      const [scheme, token] = header.split(' ');
      const resolved = scheme?.toLowerCase() === 'bearer' && token ? await devices.resolveBearer(token) : null;
      if (!resolved) {
        throw new AppError('invalid-token', 'The access token is missing, malformed or revoked.', undefined, {
          'WWW-Authenticate': 'Bearer error="invalid_token"',
        });
      }
      ctx.state.auth = { method: 'bearer', user: resolved.user, deviceToken: resolved.deviceToken } satisfies Auth;
      return next();
    }

    const cookie = ctx.cookies.get(SESSION_COOKIE);
    if (cookie) {
      const resolved = await sessions.resolve(cookie);
      if (resolved) {
        ctx.state.auth = { method: 'session', ...resolved } satisfies Auth;
        if (!SAFE_METHODS.has(ctx.method) && !sameSecret(ctx.get(CSRF_HEADER), resolved.session.csrfToken)) {
          throw new AppError(
            'csrf-token-invalid',
            'This request did not come from our pages (missing or wrong CSRF token). Reload and try again.',
          );
        }
        const viewing = ctx.cookies.get(VIEW_AS_COOKIE);
        if (viewing && !isConsolePath(ctx.path)) {
          const grant = await viewAs.resolve(viewing, resolved.user.id);
          if (!grant) clearViewAsCookie(ctx, config);
          else {
            ctx.state.auth = {
              ...resolved,
              method: 'session',
              user: grant.learner,
              viewAs: { grant, staff: resolved.user },
            } satisfies Auth;
            if (!SAFE_METHODS.has(ctx.method) && ctx.path !== VIEW_AS_END_PATH)
              throw new AppError(
                'view-as-read-only',
                'You are viewing this account as support: nothing can be changed. End the view to act as yourself.',
              );
          }
        }
      } else {
        clearSessionCookies(ctx, config);
      }
    }
    return next();
  };
}

function cookieOptions(config: Pick<Config, 'NODE_ENV'>) {
  return { sameSite: 'lax' as const, secure: config.NODE_ENV === 'production', path: '/', overwrite: true };
}

export function setSessionCookies(ctx: Context, session: NewSession, config: Pick<Config, 'NODE_ENV'>): void {
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

export function authOf(ctx: Context): Auth | undefined {
  return ctx.state.auth as Auth | undefined;
}

/** Who is acting, as the audit log and the console's read rules name them (a route whose policy required a user). */
export function actorOf(ctx: Context): { id: string; email: string; roles: User['roles'] } {
  const { id, email, roles } = userOf(ctx);
  return { id, email, roles };
}

/** The signed-in user of a route whose policy already required one. */
export function userOf(ctx: Context): User {
  const auth = authOf(ctx);
  if (!auth) throw new AppError('unauthenticated', 'Sign in to continue.');
  return auth.user;
}
