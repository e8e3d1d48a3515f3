import type { Context, Next } from 'koa';
import { allows, type Policy } from '../access-policy';
import type { Role } from '../../shared/roles';
import { authOf } from './caller';
import { AppError } from '../../shared/errors';

export type { Policy };

export const POLICY = Symbol('policy');

export type PolicyMiddleware = ((ctx: Context, next: Next) => Promise<void>) & { [POLICY]: Policy };

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
