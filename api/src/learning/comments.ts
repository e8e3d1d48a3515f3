import type { ModelObject } from 'objection';
import { recordAudit, type Actor } from '../audit/record';
import { hasStaffRole } from '../shared/roles';
import { shownName } from '../shared/shown-name';
import type { Config } from '../config';
import type { Db } from '../db/connection';
import { AppError } from '../shared/errors';
import type { Limit, RateLimiter } from '../identity/rate-limit';
import type { Viewer } from './access';
import type { LearningService } from './learning';
import type { Comment } from './models';
import type { CommentRecord, LessonComment } from './schemas';
import type { ReplyEmails } from './reply-emails/reply-emails';

/** A comment's columns, with its author's name and roles beside them. */
type CommentRow = ModelObject<Comment> & { authorName: string | null; authorRoles: string[] };

/**
 * The people who teach a lesson: whoever created a course it sits in, and the owners and contributors (revenue
 * splits) of the products that grant such a course. Staff count too, by their roles (see `view`).
 */
async function instructorsOf(db: Db, lessonId: string): Promise<Set<string>> {
  const { rows } = await db.raw(
    `WITH RECURSIVE up(id) AS (
       SELECT ?::uuid
       UNION
       SELECT l.resource_of_id FROM content_resource_resources l JOIN up ON l.resource_id = up.id
        WHERE l.deleted_at IS NULL
     )
     SELECT r.created_by_id AS user_id FROM content_resources r JOIN up ON r.id = up.id
      WHERE r.type = 'course' AND r.created_by_id IS NOT NULL
     UNION
     SELECT s.user_id FROM product_content_resources pc
       JOIN up ON pc.resource_id = up.id
       JOIN product_revenue_splits s ON s.product_id = pc.product_id
      WHERE s.type IN ('owner', 'contributor') AND s.user_id IS NOT NULL`,
    [lessonId],
  );
  return new Set((rows as { user_id: string }[]).map((row) => row.user_id));
}

const withAuthor = (db: Db) => db('comments as c').join('users as u', 'u.id', 'c.userId');
const AUTHOR_COLUMNS = ['c.*', 'u.name as authorName', 'u.roles as authorRoles'];

/**
 * The thread under each lesson: whoever may open the lesson reads and writes it; authors edit and delete their
 * own; staff hide any (a hidden comment stays visible to its author, with a note).
 */
export function commentService({
  db,
  learning,
  limiter,
  config,
  replyEmails,
}: {
  db: Db;
  learning: LearningService;
  limiter: RateLimiter;
  config: Pick<Config, 'COMMENTS_PER_MINUTE'>;
  /** Emails the author of the comment a reply answers (reply-emails/). */
  replyEmails: Pick<ReplyEmails, 'schedule' | 'committed'>;
}) {
  /** Posts and replies by one person, counted in PostgreSQL (every server process shares the count). */
  const postingLimit = (userId: string): Limit => ({
    bucket: `comment:user:${userId}`,
    max: config.COMMENTS_PER_MINUTE,
    windowSeconds: 60,
  });

  async function own(userId: string, commentId: string): Promise<CommentRow> {
    const comment = (await db('comments').where({ id: commentId }).first()) as CommentRow | undefined;
    if (!comment) throw new AppError('not-found', 'No such comment.');
    if (comment.userId !== userId) throw new AppError('not-comment-author', 'Only its author can change a comment.');
    return comment;
  }

  /** One comment as learners see it; `instructors` are the lesson's (instructorsOf). */
  const view = (row: CommentRow, viewerId: string | null, instructors: Set<string>): LessonComment => ({
    id: row.id,
    parentId: row.parentId ?? null,
    text: row.text,
    author: {
      id: row.userId,
      name: shownName({ id: row.userId, name: row.authorName }),
      instructor: instructors.has(row.userId) || hasStaffRole(row.authorRoles ?? []),
    },
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    editedAt: row.editedAt,
    mine: row.userId === viewerId,
    hidden: row.hiddenAt ? { reason: row.hiddenReason } : null,
  });

  /** One comment as its author sees it (after a post or an edit). */
  async function one(commentId: string, viewerId: string): Promise<LessonComment> {
    const row = (await withAuthor(db).where('c.id', commentId).first(AUTHOR_COLUMNS)) as CommentRow;
    const lessonId = row.context?.resourceId;
    return view(row, viewerId, lessonId ? await instructorsOf(db, lessonId) : new Set());
  }

  return {
    async list(lessonId: string, viewer: Viewer) {
      await learning.assertOpen(lessonId, viewer);
      const rows = (await withAuthor(db)
        .whereRaw(`c.context->>'resourceId' = ?`, [lessonId])
        .where((q) =>
          viewer.user ? q.whereNull('c.hiddenAt').orWhere('c.userId', viewer.user.id) : q.whereNull('c.hiddenAt'),
        )
        .orderBy([{ column: 'c.createdAt' }, { column: 'c.id' }])
        .select(AUTHOR_COLUMNS)) as CommentRow[];
      // A reply shows only under its comment: replies to a comment this viewer cannot see are left out with it.
      const shown = new Set(rows.filter((row) => !row.parentId).map((row) => row.id));
      const instructors = await instructorsOf(db, lessonId);
      return rows
        .filter((row) => !row.parentId || shown.has(row.parentId))
        .map((row) => view(row, viewer.user?.id ?? null, instructors));
    },

    /** A new comment, or with `parentId` a reply to a top-level comment of the same lesson (one level only). */
    async post(lessonId: string, viewer: Viewer & { user: { id: string } }, text: string, parentId?: string | null) {
      await learning.assertOpen(lessonId, viewer);
      let answered: string | null = null; // the author of the comment this replies to
      if (parentId) {
        const parent = await db('comments')
          .where({ id: parentId })
          .whereRaw(`context->>'resourceId' = ?`, [lessonId])
          .where((q) => q.whereNull('hiddenAt').orWhere('userId', viewer.user.id))
          .first('id', 'parentId', 'userId');
        if (!parent)
          throw new AppError('not-found', 'The comment you reply to is not under this lesson any more.', {
            parentId: 'is not a comment under this lesson',
          });
        if (parent.parentId)
          throw new AppError(
            'reply-to-reply',
            'Replies go one level deep: reply to the comment that started the thread.',
            {
              parentId: 'is itself a reply',
            },
          );
        answered = parent.userId;
      }
      // Counted once the comment is known to be postable; the count itself is atomic, so parallel posts cannot pass it.
      await limiter.hit(postingLimit(viewer.user.id), 'comments posted');
      // A reply to someone else's comment: its email to them is decided later (replyEmails), or never if this rolls back.
      const emails = answered !== null && answered !== viewer.user.id;
      const inserted = await db.transaction(async (trx) => {
        const [row] = await trx('comments')
          .insert({
            userId: viewer.user.id,
            text,
            context: JSON.stringify({ resourceId: lessonId }),
            parentId: parentId ?? null,
          })
          .returning('id');
        if (emails) await replyEmails.schedule(trx, row.id);
        return row;
      });
      if (emails) replyEmails.committed();
      return one(inserted.id, viewer.user.id);
    },

    async edit(userId: string, commentId: string, text: string) {
      await own(userId, commentId);
      await db('comments').where({ id: commentId }).update({ text, editedAt: db.fn.now() });
      return one(commentId, userId);
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
