import type { ModelObject } from 'objection';
import { recordAudit, type Actor } from '../audit/record';
import type { Db } from '../db/connection';
import { AppError } from '../http/errors';
import type { LearningService, Viewer } from './learning';
import type { Comment } from './models';
import type { CommentRecord, LessonComment } from './schemas';

/** A comment's columns, with its author's name beside them. */
type CommentRow = ModelObject<Comment> & { authorName: string | null };

/**
 * The thread under each lesson: whoever may open the lesson reads and writes it; authors edit and delete their
 * own; staff hide any (a hidden comment stays visible to its author, with a note).
 */
export function commentService({ db, learning }: { db: Db; learning: LearningService }) {
  async function own(userId: string, commentId: string): Promise<CommentRow> {
    const comment = (await db('comments').where({ id: commentId }).first()) as CommentRow | undefined;
    if (!comment) throw new AppError('not-found', 'No such comment.');
    if (comment.userId !== userId) throw new AppError('not-comment-author', 'Only its author can change a comment.');
    return comment;
  }

  const view = (row: CommentRow, viewerId: string | null): LessonComment => ({
    id: row.id,
    text: row.text,
    author: { id: row.userId, name: row.authorName ?? 'A learner' },
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    editedAt: row.editedAt,
    mine: row.userId === viewerId,
    hidden: row.hiddenAt ? { reason: row.hiddenReason } : null,
  });

  return {
    async list(lessonId: string, viewer: Viewer) {
      await learning.assertOpen(lessonId, viewer);
      const rows = (await db('comments as c')
        .join('users as u', 'u.id', 'c.userId')
        .whereRaw(`c.context->>'resourceId' = ?`, [lessonId])
        .where((q) =>
          viewer.user ? q.whereNull('c.hiddenAt').orWhere('c.userId', viewer.user.id) : q.whereNull('c.hiddenAt'),
        )
        .orderBy([{ column: 'c.createdAt' }, { column: 'c.id' }])
        .select('c.*', 'u.name as authorName')) as CommentRow[];
      return rows.map((row) => view(row, viewer.user?.id ?? null));
    },

    async post(lessonId: string, viewer: Viewer & { user: { id: string } }, text: string) {
      await learning.assertOpen(lessonId, viewer);
      const [row] = await db('comments')
        .insert({ userId: viewer.user.id, text, context: JSON.stringify({ resourceId: lessonId }) })
        .returning('*');
      const author = await db('users').where({ id: viewer.user.id }).first('name');
      return view({ ...row, authorName: author.name }, viewer.user.id);
    },

    async edit(userId: string, commentId: string, text: string) {
      await own(userId, commentId);
      const [row] = await db('comments')
        .where({ id: commentId })
        .update({ text, editedAt: db.fn.now() })
        .returning('*');
      const author = await db('users').where({ id: userId }).first('name');
      return view({ ...row, authorName: author.name }, userId);
    },

    async remove(userId: string, commentId: string): Promise<void> {
      await own(userId, commentId);
      await db('comments').where({ id: commentId }).delete();
    },

    /** Staff hide (or show again) any comment; recorded in the audit log. */
    async setHidden(
      actor: Actor,
      commentId: string,
      hidden: boolean,
      reason: string | null,
      requestId: string | null = null,
    ): Promise<CommentRecord> {
      return db.transaction(async (trx) => {
        const before = await trx('comments').where({ id: commentId }).forUpdate().first();
        if (!before) throw new AppError('not-found', 'No such comment.');
        if (Boolean(before.hiddenAt) === hidden) return before; // already so: nothing changes, nothing is logged
        const [row] = await trx('comments')
          .where({ id: commentId })
          .update(
            hidden
              ? { hiddenAt: trx.fn.now(), hiddenById: actor.id, hiddenReason: reason }
              : { hiddenAt: null, hiddenById: null, hiddenReason: null },
          )
          .returning('*');
        await recordAudit(trx, {
          actor,
          action: hidden ? 'comment.hidden' : 'comment.shown',
          resource: 'comments',
          recordId: commentId,
          before: { hiddenAt: before.hiddenAt, hiddenReason: before.hiddenReason },
          after: { hiddenAt: row.hiddenAt, hiddenReason: row.hiddenReason },
          requestId,
        });
        return row;
      });
    },
  };
}

export type CommentService = ReturnType<typeof commentService>;
