import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Clock } from '../clock';
import type { Db } from '../db/connection';
import type { RunningJob } from '../jobs/queue';
import type { Logger } from '../logger';
import type { MediaStorage } from '../media/storage';
import { VideoRunAborted, VideoToolMissing, VideoUnusable, type VideoTools } from './ffmpeg';
import { masterKey, posterKey, versionPrefix } from './keys';
import { makeRenditions } from './make-renditions';
import type { LessonVideo } from './models';
import { currentRun, failRun, progressWriter } from './run-state';
import { storeRenditions } from './store-renditions';
import type { ProcessVideoData } from './video-job';

/** What one run of the job is built from (process-video.ts fills it in). */
export interface VideoRunDeps {
  db: Db;
  storage: MediaStorage;
  logger: Logger;
  clock: Clock;
  tools: VideoTools;
  changed: () => void;
}

/**
 * One run for one version: claims the row (queued or processing), makes and stores the renditions, and marks the
 * version ready unless it was replaced or removed meanwhile; then the earlier versions' outputs go. Failures are
 * sorted by what can fix them (failRunFor).
 */
export async function runVideoJob(deps: VideoRunDeps, { videoId, version }: ProcessVideoData, job: RunningJob) {
  const { db, storage, logger } = deps;
  const claimed = await db('lessonVideos')
    .where({ id: videoId, version })
    .whereIn('status', ['queued', 'processing'])
    .update({ status: 'processing', progress: 0, error: null, errorCode: null });
  if (!claimed) {
    logger.debug({ videoId, version }, 'video job for a replaced, removed or finished version: nothing to do');
    return;
  }
  const video: LessonVideo = await db('lessonVideos').where({ id: videoId }).first();
  const workDir = await mkdtemp(path.join(os.tmpdir(), `lp-video-${videoId.slice(0, 8)}-`));
  const progress = progressWriter(deps, videoId, version);
  try {
    const made = await makeRenditions(deps, video, workDir, { signal: job.signal, progress });
    const { probed, heights } = made;
    const { hasPoster } = await storeRenditions(storage, made.outputDir, videoId, version, heights);

    const ready = await currentRun(db, videoId, version).update({
      status: 'ready',
      progress: 100,
      error: null,
      durationMs: probed.durationMs ?? Math.max(1, made.measuredMs),
      width: probed.width,
      height: probed.height,
      renditionHeights: heights,
      hlsKey: masterKey(videoId, version),
      posterKey: hasPoster ? posterKey(videoId, version) : null,
      processedAt: deps.clock.now(),
    });
    if (!ready) {
      // Replaced or removed while this ran: what it made is nobody's.
      await storage.deletePrefix(versionPrefix(videoId, version));
      return;
    }
    deps.changed();
    // What earlier versions made goes now that this one plays.
    for (let old = 1; old < version; old++) {
      await storage.deletePrefix(versionPrefix(videoId, old)).catch((error: unknown) => {
        logger.warn({ err: error, videoId, version: old }, 'could not remove an old video version');
      });
    }
    logger.info({ videoId, version, renditions: heights, durationMs: probed.durationMs }, 'video ready');
  } catch (error) {
    await progress.settled();
    await failRunFor(deps, { videoId, version }, job, error);
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/**
 * A failure retrying cannot fix (not a video, ffmpeg missing) fails the video at once; a shutdown puts it back in
 * the queue; anything else (the storage or database away) is retried by the queue, and fails the video on the last
 * run. Throws whenever the queue is to run the job again.
 */
async function failRunFor(
  deps: VideoRunDeps,
  { videoId, version }: ProcessVideoData,
  job: RunningJob,
  error: unknown,
): Promise<void> {
  const { db, logger } = deps;
  if (error instanceof VideoUnusable || error instanceof VideoToolMissing) {
    // A missing program is the operator's to fix; a file that is no video is staff's (the console says why).
    const level = error instanceof VideoToolMissing ? 'warn' : 'info';
    logger[level]({ videoId, version, reason: error.message }, 'video processing failed');
    await failRun(deps, videoId, version, error.message, error.code);
    return;
  }
  if (error instanceof VideoRunAborted) {
    // Shutting down: back to the queue, which runs it again later (here or on another replica).
    await currentRun(db, videoId, version)
      .update({ status: 'queued', progress: 0 })
      .catch(() => undefined);
    throw error;
  }
  if (job.final) {
    const reason = `processing failed (${error instanceof Error ? error.message : String(error)}): press Retry`;
    await failRun(deps, videoId, version, reason, 'video-processing-failed');
    return;
  }
  await currentRun(db, videoId, version).update({ status: 'queued', progress: 0 });
  throw error;
}
