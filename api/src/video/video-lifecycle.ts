import { recordAudit } from '../audit/record';
import { AppError } from '../shared/errors';
import { VIDEO_RESOURCE, type VideoAdminDeps, type VideoWriteContext } from './admin-deps';
import { videoPrefix } from './keys';
import type { LessonVideo } from './models';
import type { VideoRecord } from './schemas';
import { checkVideoAuthor } from './video-authorship';
import { PROCESS_VIDEO_JOB, type ProcessVideoData } from './video-job';
import { getVideo } from './video-reads';

/** A failed video is queued again (same source, same version), audited; anything else is a 409. */
export async function retryVideo(deps: VideoAdminDeps, id: string, context: VideoWriteContext): Promise<VideoRecord> {
  const { db, jobs } = deps;
  await checkVideoAuthor(db, id, context);
  await db.transaction(async (trx) => {
    const row: LessonVideo | undefined = await trx('lessonVideos').where({ id }).forUpdate().first();
    if (!row) throw new AppError('not-found', `No video with id ${id}.`);
    if (row.status !== 'failed') {
      throw new AppError('video-not-failed', `Only a failed video can be retried; this one is ${row.status}.`);
    }
    await trx('lessonVideos').where({ id }).update({ status: 'queued', progress: 0, error: null, errorCode: null });
    await jobs.add(trx, PROCESS_VIDEO_JOB, { videoId: id, version: row.version } satisfies ProcessVideoData);
    await recordAudit(trx, {
      ...context,
      action: 'retry',
      resource: VIDEO_RESOURCE,
      recordId: id,
      before: { status: 'failed', error: row.error },
      after: { status: 'queued', version: row.version },
    });
  });
  if (deps.processHere) jobs.wake(PROCESS_VIDEO_JOB);
  deps.changed();
  return getVideo(deps, id);
}

/** The video goes (its captions with it), audited; its files under `videos/<id>/` after the commit. */
export async function removeVideo(deps: VideoAdminDeps, id: string, context: VideoWriteContext): Promise<VideoRecord> {
  const { db, storage } = deps;
  await checkVideoAuthor(db, id, context);
  const record = await getVideo(deps, id);
  await db.transaction(async (trx) => {
    const row: LessonVideo | undefined = await trx('lessonVideos').where({ id }).forUpdate().first();
    if (!row) throw new AppError('not-found', `No video with id ${id}.`);
    await trx('lessonVideos').where({ id }).delete();
    await recordAudit(trx, {
      ...context,
      action: 'delete',
      resource: VIDEO_RESOURCE,
      recordId: id,
      before: { lessonId: row.lessonId, version: row.version, status: row.status, sourceName: row.sourceName },
    });
  });
  deps.changed();
  await storage.deletePrefix(videoPrefix(id));
  return record;
}
