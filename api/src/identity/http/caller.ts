import type { Context, Next } from 'koa';
import type { Config } from '../../config';
import {
  clearSessionCookies,
  clearViewAsCookie,
  CSRF_HEADER,
  SESSION_COOKIE,
  VIEW_AS_COOKIE,
  VIEW_AS_END_PATH,
} from '../../http/auth';
import { AppError } from '../../shared/errors';
import type { DeviceFlow } from '../devices/device-flow';
import type { DeviceAccessToken, Session, User } from '../models';
import { sameSecret } from '../secrets';
import type { Sessions } from '../sign-in/sessions';
import type { ViewAs, ViewAsGrant } from '../staff/view-as';

export type Auth =
  | {
      method: 'session';
      user: User;
      session: Session;
      /** Support viewing the storefront as `user` (read-only): who is really there, and until when. */
      viewAs?: { grant: ViewAsGrant; staff: User };
    }
  | { method: 'bearer'; user: User; deviceToken: DeviceAccessToken };

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
