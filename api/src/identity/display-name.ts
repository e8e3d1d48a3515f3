import type { Db } from '../db/connection';
import { AppError } from '../http/errors';
import { User } from './models';
import { publicUser } from './users';
import type { DisplayNameAnswer } from './display-name.schemas';

/** The name a learner shows on their comments (users.name), set from the storefront's settings. */
export function displayNames({ db, changed = () => {} }: { db: Db; changed?: () => void }) {
  return {
    /** Sets (or, with null, clears) the name; the cached signed-in user is refreshed so /me shows it at once. */
    async set(userId: string, name: string | null): Promise<DisplayNameAnswer> {
      const user = await User.query(db).patchAndFetchById(userId, { name });
      if (!user) throw new AppError('not-found', 'No such account.');
      changed();
      return { user: publicUser(user) };
    },
  };
}

export type DisplayNames = ReturnType<typeof displayNames>;
