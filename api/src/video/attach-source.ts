import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Knex } from 'knex';
import { recordAudit } from '../audit/record';
import { assertMayEditContent } from '../learning/authorship';
import { AppError } from '../shared/errors';
import { VIDEO_RESOURCE, type VideoAdminDeps, type VideoWriteContext } from './admin-deps';
import { sourceKey } from './keys';
import type { LessonVideo } from './models';
import { PROCESS_VIDEO_JOB, type ProcessVideoData } from './video-job';
import type { VideoRecord } from './schemas';
import { requireLesson } from './video-authorship';
import { getVideo } from './video-reads';

/** A new source for a lesson: its name and size as uploaded, and a way to read its bytes (more than once if need be). */
export interface NewSource {
  lessonId: string;
  filename: string;
  contentType: string | undefined;
  size: number;
  open: () => Promise<Readable>;
}

/** How often a source is stored again when another upload for the same lesson won the race to its version. */
const ATTACH_ATTEMPTS = 3;

/** The version a stored source is to become: the video's id (kept when replacing) and the version before it + 1. */
interface PlannedVersion {
  id: string;
  version: number;
  key: string;
}

/**
 * Stores the source under the version it will have, then, in one transaction with the lesson locked, makes it
 * the lesson's video (created, or replaced: version + 1, queued, nothing of the old version's results) and adds
 * its processing job, audited. Another upload for the same lesson that committed first takes that version: this
 * one is then stored again under the next. The replaced source is removed after the commit.
 */
export async function attachSource(
  deps: VideoAdminDeps,
  source: NewSource,
  context: VideoWriteContext,
  { wake = true }: { wake?: boolean } = {},
): Promise<VideoRecord> {
  const { db, storage, jobs, logger } = deps;
  assertMayEditContent(await requireLesson(db, source.lessonId), context.actor);
  for (let attempt = 1; attempt <= ATTACH_ATTEMPTS; attempt++) {
    const existing: Pick<LessonVideo, 'id' | 'version'> | undefined = await db('lessonVideos')
      .where({ lessonId: source.lessonId })
      .first('id', 'version');
    const id = existing?.id ?? randomUUID();
    const version = (existing?.version ?? 0) + 1;
    const key = sourceKey(id, version, source.filename);
    await storage.put(key, await source.open(), source.contentType || 'application/octet-stream');

    const replaced = await db.transaction((trx) => makeLessonVideo(deps, trx, source, { id, version, key }, context));
    if (!replaced) {
      // Another source won this version; a key under a fresh id is this attempt's alone.
      if (!existing) await storage.delete(key);
      continue;
    }
    if (replaced.previous && replaced.previous !== key) {
      await storage.delete(replaced.previous).catch((error: unknown) => {
        logger.warn({ err: error, key: replaced.previous }, 'could not remove a replaced video source');
      });
    }
    if (wake && deps.processHere) jobs.wake(PROCESS_VIDEO_JOB);
    deps.changed();
    return getVideo(deps, id);
  }
  throw new AppError('conflict', 'Other uploads for this lesson finished at the same time; upload it again.');
}

/**
 * With the lesson and its video locked: the planned version becomes the lesson's video, queued with its job, or null
 * when another source took that version first. Returns the replaced source's key, to remove after the commit.
 */
async function makeLessonVideo(
  { jobs }: Pick<VideoAdminDeps, 'jobs'>,
  trx: Knex.Transaction,
  source: NewSource,
  { id, version, key }: PlannedVersion,
  context: VideoWriteContext,
): Promise<{ previous: string | null } | null> {
  await requireLesson(trx, source.lessonId, true);
  const row: LessonVideo | undefined = await trx('lessonVideos')
    .where({ lessonId: source.lessonId })
    .forUpdate()
    .first();
  if ((row?.id ?? id) !== id || (row?.version ?? 0) !== version - 1) return null;
  const fields = {
    status: 'queued' as const,
    progress: 0,
    error: null,
    errorCode: null,
    version,
    sourceKey: key,
    sourceName: source.filename,
    sourceSize: source.size,
  };
  if (row) {
    await trx('lessonVideos')
      .where({ id })
      .update({
        ...fields,
        durationMs: null,
        width: null,
        height: null,
        renditionHeights: [],
        hlsKey: null,
        posterKey: null,
        processedAt: null,
      });
  } else {
    await trx('lessonVideos').insert({ id, lessonId: source.lessonId, ...fields });
  }
  await jobs.add(trx, PROCESS_VIDEO_JOB, { videoId: id, version } satisfies ProcessVideoData);
  await recordAudit(trx, {
    ...context,
    action: row ? 'replace-source' : 'upload',
    resource: VIDEO_RESOURCE,
    recordId: id,
    before: row ? { version: row.version, status: row.status, sourceName: row.sourceName } : null,
    after: { lessonId: source.lessonId, version, sourceName: source.filename, sourceSize: source.size },
  });
  return { previous: row?.sourceKey ?? null };
}
