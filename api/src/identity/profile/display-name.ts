import type { Db } from '../../db/connection';
import { AppError } from '../../shared/errors';
import type { User } from '../models';
import { publicUser } from './users';
import type { DisplayNameAnswer } from './display-name.schemas';

/** The name a learner shows on their comments and certificates (users.name), set from the storefront's settings. */
export function displayNames({
  db,
  nameChanged,
  changed = () => {},
}: {
  db: Db;
  /** What else carries the name (certificates) takes the new one, in the same transaction. */
  nameChanged: (trx: Db, userId: string) => Promise<void>;
  changed?: () => void;
}) {
  return {
    /**
     * Sets (or, with null, clears) the name; the cached signed-in user is refreshed so /me shows it at once. The
     * learner's certificates carry the new name from the same commit.
     */
    async set(userId: string, name: string | null): Promise<DisplayNameAnswer> {
      const user = await db.transaction(async (trx) => {
        const [renamed]: (User | undefined)[] = await trx('users')
          .where({ id: userId })
          .update({ name })
          .returning('*');
        if (renamed) await nameChanged(trx, userId);
        return renamed;
      });
      if (!user) throw new AppError('not-found', 'No such account.');
      changed();
      return { user: publicUser(user) };
    },
  };
}

export type DisplayNames = ReturnType<typeof displayNames>;
