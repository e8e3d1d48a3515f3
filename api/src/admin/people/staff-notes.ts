import type { Db } from '../../db/connection';
import { AppError } from '../../shared/errors';
import type { StaffNote } from '../schemas/timeline';

/**
 * Internal notes staff add on a person, or on one of their purchases: who wrote it and when, never shown to the
 * person (no storefront route reads the table). They appear on the person's and the purchase's timelines.
 */
export function staffNotes({ db }: { db: Db }) {
  const insert = async (row: { userId: string; purchaseId: string | null; body: string }, author: Author) => {
    const [note] = await db('staffNotes')
      .insert({ ...row, authorId: author.id, authorEmail: author.email })
      .returning(['id', 'userId', 'purchaseId', 'authorEmail', 'body', 'createdAt']);
    return note as StaffNote;
  };
  return {
    async onUser(userId: string, body: string, author: Author): Promise<StaffNote> {
      if (!(await db('users').where({ id: userId }).first('id'))) throw new AppError('not-found', 'No such user.');
      return insert({ userId, purchaseId: null, body }, author);
    },

    async onPurchase(purchaseId: string, body: string, author: Author): Promise<StaffNote> {
      const purchase = await db('purchases').where({ id: purchaseId }).first('userId');
      if (!purchase) throw new AppError('not-found', 'No such purchase.');
      return insert({ userId: purchase.userId, purchaseId, body }, author);
    },
  };
}

interface Author {
  id: string;
  email: string;
}

export type StaffNotes = ReturnType<typeof staffNotes>;
