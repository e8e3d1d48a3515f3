import type { Role } from '../shared/roles';

/**
 * Who may call a route: anyone, any signed-in user, or the listed roles (admins may do everything).
 * Device (bearer) tokens are accepted only where a route says so, public routes included: a token a device was
 * given to read courses and record progress must not buy, redeem or sign in as its user.
 */
export type Policy =
  | { kind: 'public'; bearer: boolean }
  | { kind: 'signed-in'; bearer: boolean }
  | { kind: 'roles'; roles: readonly Role[] };

/** Whether a user with these roles passes the policy (routes check it; saved filters ask it of a list's readers). */
export function allows(policy: Policy, roles: readonly Role[]): boolean {
  if (policy.kind !== 'roles') return true;
  return roles.includes('admin') || policy.roles.some((r) => roles.includes(r));
}
