import { AppError } from '../http/errors';
import { hasStaffRole } from './roles';

/**
 * Support acts on learners' accounts; on a staff account only administrators do (as only they delete or sign out
 * one): a support member changing an administrator's email could sign in as them.
 */
export function assertMayManage(
  target: { roles: readonly string[] },
  actor: { roles: readonly string[] },
  what: string,
) {
  if (hasStaffRole(target.roles) && !actor.roles.includes('admin'))
    throw new AppError('forbidden', `Only administrators can ${what} staff accounts.`);
}
