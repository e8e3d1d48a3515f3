import type { Db } from '../db/connection';
import { assertMayEditContent } from '../learning/authorship';
import type { ContentResource } from '../learning/models';
import { AppError } from '../shared/errors';
import type { VideoAdminDeps, VideoWriteContext } from './admin-deps';

/** The lesson (not deleted) or a 404; locked when the caller is about to make it a video. */
export async function requireLesson(
  conn: Db,
  lessonId: string,
  lock = false,
): Promise<Pick<ContentResource, 'createdById'>> {
  const query = conn('contentResources')
    .where({ id: lessonId, type: 'lesson' })
    .whereNull('deletedAt')
    .first('createdById');
  const lesson = await (lock ? query.forUpdate() : query);
  if (!lesson) throw new AppError('not-found', `No lesson with id ${lessonId}.`);
  return lesson;
}

/** Refuses a write to a video this writer may not make: a contributor on another author's lesson (403). */
export async function checkVideoAuthor(db: Db, id: string, context: VideoWriteContext): Promise<void> {
  const row = await db('lessonVideos as v')
    .leftJoin('contentResources as l', 'l.id', 'v.lessonId')
    .where('v.id', id)
    .first('l.createdById');
  if (!row) throw new AppError('not-found', `No video with id ${id}.`);
  assertMayEditContent({ createdById: row.createdById ?? null }, context.actor);
}

/** The lesson, or a 404, and one this writer may change (403 otherwise): checked before an upload starts. */
export async function requireEditableLesson(
  { db }: Pick<VideoAdminDeps, 'db'>,
  lessonId: string,
  context: VideoWriteContext,
): Promise<void> {
  assertMayEditContent(await requireLesson(db, lessonId), context.actor);
}

/** An upload under way goes on only for whoever may change its lesson (a lesson deleted meanwhile: tus decides). */
export async function checkUploadLesson(
  { db }: Pick<VideoAdminDeps, 'db'>,
  lessonId: string,
  context: VideoWriteContext,
): Promise<void> {
  const lesson: Pick<ContentResource, 'createdById'> | undefined = await db('contentResources')
    .where({ id: lessonId })
    .first('createdById');
  if (lesson) assertMayEditContent(lesson, context.actor);
}
