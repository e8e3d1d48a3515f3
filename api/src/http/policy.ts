import type { Context, Next } from 'koa';
import type { Role } from '../identity/roles';
import { authOf } from './auth';
import { AppError } from '../shared/errors';

/**
 * Who may call a route: anyone, any signed-in user, or the listed roles (admins may do everything).
 * Device (bearer) tokens are accepted only where a route says so, public routes included: a token a device was
 * given to read courses and record progress must not buy, redeem or sign in as its user.
 */
export type Policy =
  | { kind: 'public'; bearer: boolean }
  | { kind: 'signed-in'; bearer: boolean }
  | { kind: 'roles'; roles: readonly Role[] };

export const POLICY = Symbol('policy');

export type PolicyMiddleware = ((ctx: Context, next: Next) => Promise<void>) & { [POLICY]: Policy };

export function allows(policy: Policy, roles: readonly Role[]): boolean {
  if (policy.kind !== 'roles') return true;
  return roles.includes('admin') || policy.roles.some((r) => roles.includes(r));
}

function make(policy: Policy): PolicyMiddleware {
  const middleware = async (ctx: Context, next: Next) => {
    const auth = authOf(ctx);
    if (!auth && policy.kind !== 'public') throw new AppError('unauthenticated', 'Sign in to continue.');
    if (auth?.method === 'bearer' && !(policy.kind !== 'roles' && policy.bearer)) {
      throw new AppError('forbidden', 'Device tokens cannot be used here; sign in on the website instead.');
    }
    if (auth && !allows(policy, auth.user.roles))
      throw new AppError('forbidden', 'Your account does not have access to this.');
    await next();
  };
  return Object.assign(middleware, { [POLICY]: policy });
}

/** Every route starts with one of these; a test walks the router and fails on a route without one. */
export const allow = {
  public: (options: { bearer?: boolean } = {}) => make({ kind: 'public', bearer: options.bearer ?? false }),
  signedIn: (options: { bearer?: boolean } = {}) => make({ kind: 'signed-in', bearer: options.bearer ?? false }),
  roles: (...roles: Role[]) => make({ kind: 'roles', roles }),
};

export type Policies = typeof allow;
