import { recordAudit, type Actor } from '../../audit/record';
import type { Db } from '../../db/connection';
import { AppError } from '../../shared/errors';
import type { User } from '../models';
import type { Role } from '../../shared/roles';
import { assertAnotherAdminRemains } from './admin-guard';
import { findOrCreateUserByEmail, findUserByEmail } from '../profile/users';

/** Role changes, from the console or the command line; each is audited in the same transaction. */
/** `changed` runs after a committed change: signed-in sessions held in the read cache carry the user's roles. */
export function roleAdmin({ db, changed = () => {} }: { db: Db; changed?: () => void }) {
  async function change(
    userId: string,
    next: (roles: Role[]) => Role[],
    actor: Actor,
    requestId?: string | null,
  ): Promise<User> {
    return db
      .transaction(async (trx) => {
        const user: User | undefined = await trx('users').where({ id: userId }).forUpdate().first();
        if (!user) throw new AppError('not-found', 'No such user.');
        const roles = [...new Set(next(user.roles))].sort();
        if (roles.join() === [...user.roles].sort().join()) return user;
        if (user.roles.includes('admin') && !roles.includes('admin')) await assertAnotherAdminRemains(trx, userId);
        const [updated] = (await trx('users').where({ id: userId }).update({ roles }).returning('*')) as [User];
        await recordAudit(trx, {
          actor,
          action: 'user.roles-changed',
          resource: 'users',
          recordId: userId,
          before: { roles: user.roles },
          after: { roles },
          requestId,
        });
        return updated;
      })
      .finally(changed);
  }

  return {
    /** Grants to an address even before its first sign-in (the account is created unverified). */
    async grant(email: string, role: Role, actor: Actor): Promise<User> {
      const user = await findOrCreateUserByEmail(db, email, { verified: false });
      return change(user.id, (roles) => [...roles, role], actor);
    },

    async revoke(email: string, role: Role, actor: Actor): Promise<User> {
      const user = await findUserByEmail(db, email);
      if (!user) throw new AppError('not-found', `No user with the email ${email}.`);
      return change(user.id, (roles) => roles.filter((r) => r !== role), actor);
    },

    setRoles: (userId: string, roles: Role[], actor: Actor, requestId?: string | null) =>
      change(userId, () => roles, actor, requestId),
  };
}
