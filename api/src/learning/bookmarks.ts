import type { Db } from '../db/connection';
import type { LearningService } from './learning';
import type { Bookmark, BookmarkState } from './schemas';

/**
 * A learner's bookmarks on lessons: one per lesson (a unique key), newest first. Only lessons learners can see are
 * bookmarked or listed, so a bookmark never tells the title of a draft.
 */
export function bookmarkService({
  db,
  learning,
}: {
  db: Db;
  learning: Pick<LearningService, 'assertVisible' | 'isVisible'>;
}) {
  return {
    async list(userId: string): Promise<Bookmark[]> {
      const rows = await db('bookmarks as b')
        .join('contentResources as r', 'r.id', 'b.resourceId')
        .where({ 'b.userId': userId, 'b.type': 'bookmark' })
        .whereNull('r.deletedAt')
        .orderBy([
          { column: 'b.createdAt', order: 'desc' },
          { column: 'b.id', order: 'desc' },
        ])
        .select(
          'b.id',
          'b.resourceId',
          'b.fields',
          'b.createdAt',
          db.raw(`r.fields->>'title' AS title`),
          db.raw(`r.fields->>'slug' AS slug`),
        );
      type Row = {
        id: string;
        resourceId: string;
        fields: { courseSlug?: string; courseTitle?: string };
        createdAt: Date;
        title: string;
        slug: string | null;
      };
      const seen = await Promise.all((rows as Row[]).map((r) => learning.isVisible(r.resourceId)));
      return (rows as Row[])
        .filter((_, i) => seen[i])
        .map((r) => ({
          id: r.id,
          lesson: { id: r.resourceId, title: r.title, slug: r.slug },
          course: r.fields.courseSlug ? { slug: r.fields.courseSlug, title: r.fields.courseTitle ?? null } : null,
          createdAt: r.createdAt,
        }));
    },

    /** Adding twice keeps one bookmark (and its first date). */
    async add(
      userId: string,
      lessonId: string,
      course: { slug: string | null; title: string } | null,
    ): Promise<BookmarkState> {
      await learning.assertVisible(lessonId);
      await db('bookmarks')
        .insert({
          userId,
          resourceId: lessonId,
          type: 'bookmark',
          fields: JSON.stringify(course ? { courseSlug: course.slug, courseTitle: course.title } : {}),
        })
        .onConflict(['userId', 'resourceId', 'type'])
        .ignore();
      return { lessonId, bookmarked: true };
    },

    async remove(userId: string, lessonId: string): Promise<BookmarkState> {
      await db('bookmarks').where({ userId, resourceId: lessonId, type: 'bookmark' }).delete();
      return { lessonId, bookmarked: false };
    },
  };
}

export type BookmarkService = ReturnType<typeof bookmarkService>;
