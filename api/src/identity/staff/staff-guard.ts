import type { Knex } from 'knex';
import { AppError } from '../../shared/errors';
import { isStaffAccount } from '../../shared/roles';

/**
 * Support acts on learners' accounts; on a staff account (anyone who can open the console, contributors included)
 * only administrators do (as only they delete or sign out one): a support member changing an administrator's email
 * could sign in as them.
 */
export function assertMayManage(
  target: { roles: readonly string[] },
  actor: { roles: readonly string[] },
  what: string,
) {
  if (isStaffAccount(target.roles) && !actor.roles.includes('admin'))
    throw new AppError('forbidden', `Only administrators can ${what} staff accounts.`);
}

/**
 * The same rule for a record that belongs to a person (a session, a sign-in link, a device, a linked account), found
 * by their id or by their address (sign-in links name an address). A record nobody's account holds is anyone's.
 */
export async function assertMayManageOwner(
  conn: Knex,
  owner: { userId?: string | null; email?: string | null },
  actor: { roles: readonly string[] },
  what: string,
): Promise<void> {
  if (!owner.userId && !owner.email) return;
  const query = conn('users').first('roles');
  if (owner.userId) query.where('id', owner.userId);
  else query.whereRaw('lower(email) = lower(?)', [owner.email!]);
  const person = (await query) as { roles: string[] } | undefined;
  if (person) assertMayManage(person, actor, what);
}
