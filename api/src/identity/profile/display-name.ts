import type { Db } from '../../db/connection';
import { AppError } from '../../shared/errors';
import type { User } from '../models';
import { publicUser } from './users';
import type { DisplayNameAnswer } from './display-name.schemas';

/**
 * The name a learner shows on their comments (users.name), set from the storefront's settings; certificates issued
 * from now on carry it too (those issued before keep the name they were issued with).
 */
export function displayNames({ db, changed = () => {} }: { db: Db; changed?: () => void }) {
  return {
    /** Sets (or, with null, clears) the name; the cached signed-in user is refreshed so /me shows it at once. */
    async set(userId: string, name: string | null): Promise<DisplayNameAnswer> {
      const [user]: (User | undefined)[] = await db('users').where({ id: userId }).update({ name }).returning('*');
      if (!user) throw new AppError('not-found', 'No such account.');
      changed();
      return { user: publicUser(user) };
    },
  };
}

export type DisplayNames = ReturnType<typeof displayNames>;
