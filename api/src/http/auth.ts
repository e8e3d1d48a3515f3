import type { Context, Next } from 'koa';
import type { Config } from '../config';
import type { DeviceFlow } from '../identity/device-flow';
import type { DeviceAccessToken, Session, User } from '../identity/models';
import { sameSecret } from '../identity/secrets';
import type { NewSession, Sessions } from '../identity/sessions';
import { AppError } from './errors';

export const SESSION_COOKIE = 'lp_session';
/** Readable by the page's script, which echoes it in the X-CSRF-Token header. */
export const CSRF_COOKIE = 'lp_csrf';
export const CSRF_HEADER = 'x-csrf-token';

export type Auth =
  | { method: 'session'; user: User; session: Session }
  | { method: 'bearer'; user: User; deviceToken: DeviceAccessToken };

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Who is calling: a session cookie (browsers) or a bearer token (devices). Browser requests that change
 * state must echo the session's CSRF token; bearer requests carry no ambient credentials and need none.
 */
export function authenticate({
  sessions,
  devices,
  config,
}: {
  sessions: Sessions;
  devices: DeviceFlow;
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

export function authOf(ctx: Context): Auth | undefined {
  return ctx.state.auth as Auth | undefined;
}

/** The signed-in user of a route whose policy already required one. */
export function userOf(ctx: Context): User {
  const auth = authOf(ctx);
  if (!auth) throw new AppError('unauthenticated', 'Sign in to continue.');
  return auth.user;
}
