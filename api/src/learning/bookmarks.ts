import type { Db } from '../db/connection';
import { AppError } from '../http/errors';

/** A learner's bookmarks on lessons: one per lesson (a unique key), newest first. */
export function bookmarkService({ db }: { db: Db }) {
  return {
    async list(userId: string) {
      const rows = await db('bookmarks as b')
        .join('contentResources as r', 'r.id', 'b.resourceId')
        .where({ 'b.userId': userId, 'b.type': 'bookmark' })
        .whereNull('r.deletedAt')
        .orderBy([{ column: 'b.createdAt', order: 'desc' }, { column: 'b.id', order: 'desc' }])
        .select('b.id', 'b.resourceId', 'b.fields', 'b.createdAt', db.raw(`r.fields->>'title' AS title`), db.raw(`r.fields->>'slug' AS slug`));
      return rows.map((r: { id: string; resourceId: string; fields: { courseSlug?: string; courseTitle?: string }; createdAt: Date; title: string; slug: string | null }) => ({
        id: r.id,
        lesson: { id: r.resourceId, title: r.title, slug: r.slug },
        course: r.fields.courseSlug ? { slug: r.fields.courseSlug, title: r.fields.courseTitle ?? null } : null,
        createdAt: r.createdAt,
      }));
    },

    /** Adding twice keeps one bookmark (and its first date). */
    async add(userId: string, lessonId: string, course: { slug: string | null; title: string } | null) {
      const lesson = await db('contentResources').where({ id: lessonId, type: 'lesson' }).whereNull('deletedAt').first('id');
      if (!lesson) throw new AppError('not-found', 'No such lesson.');
      await db('bookmarks')
        .insert({ userId, resourceId: lessonId, type: 'bookmark', fields: JSON.stringify(course ? { courseSlug: course.slug, courseTitle: course.title } : {}) })
        .onConflict(['userId', 'resourceId', 'type'])
        .ignore();
      return { lessonId, bookmarked: true };
    },

    async remove(userId: string, lessonId: string) {
      await db('bookmarks').where({ userId, resourceId: lessonId, type: 'bookmark' }).delete();
      return { lessonId, bookmarked: false };
    },
  };
}

export type BookmarkService = ReturnType<typeof bookmarkService>;
