import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db/connection';
import type { JobQueue, RunningJob } from '../jobs/queue';
import type { Logger } from '../logger';
import type { MediaStorage } from '../media/storage';
import {
  outputFrameRate,
  probeVideo,
  transcode,
  videoTools,
  VideoRunAborted,
  VideoToolMissing,
  VideoUnusable,
} from './ffmpeg';
import { masterKey, posterKey, renditionPrefix, versionPrefix } from './keys';
import type { LessonVideo } from './models';
import {
  masterPlaylist,
  measureBandwidth,
  planRenditions,
  playlistSegments,
  renditionName,
  type MasterEntry,
} from './renditions';

export const PROCESS_VIDEO_JOB = 'process-video';

export interface ProcessVideoData {
  videoId: string;
  /** The source version the job was added for: a run for an older one does nothing. */
  version: number;
}

/** A run is failed by the queue after this (its process died); every timeout inside stays well under it. */
const JOB_EXPIRY_SECONDS = 6 * 60 * 60;
const LONGEST_TRANSCODE_MS = 5 * 60 * 60 * 1000;
/** Progress is written to the row at most this often. */
const PROGRESS_EVERY_MS = 1000;
const UPLOADS_AT_ONCE = 4;

/** ffmpeg gets ten minutes plus six times the video's length, at most five hours; unknown length: five hours. */
export const transcodeTimeoutMs = (durationMs: number | null) =>
  durationMs ? Math.min(LONGEST_TRANSCODE_MS, 10 * 60_000 + 6 * durationMs) : LONGEST_TRANSCODE_MS;

const CONTENT_TYPES: Record<string, string> = {
  '.m3u8': 'application/vnd.apple.mpegurl',
  '.ts': 'video/mp2t',
  '.jpg': 'image/jpeg',
};

async function runAll<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: Math.min(limit, queue.length) }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}

export interface VideoProcessingDeps {
  db: Db;
  storage: MediaStorage;
  jobs: JobQueue;
  logger: Logger;
  clock: Clock;
  config: Pick<Config, 'FFMPEG_PATH' | 'FFPROBE_PATH'>;
  /** Called when a video became ready: the read caches forget, so outlines show the new length at once. */
  changed?: () => void;
}

/**
 * The `process-video` job: the source of one version of a lesson's video becomes HLS renditions and a poster in the
 * storage. The row goes queued → processing (progress written at most once a second) → ready, or failed with a
 * reason staff can act on. Every write names the version, so a run for a source since replaced changes nothing;
 * the previous versions' outputs are removed once this one is ready. A failure retrying cannot fix (not a video,
 * ffmpeg missing) fails the video at once; anything else (the storage or database away) is retried by the queue,
 * and fails the video on the last run.
 */
export function defineVideoProcessing({
  db,
  storage,
  jobs,
  logger,
  clock,
  config,
  changed = () => {},
}: VideoProcessingDeps) {
  const tools = videoTools(config);
  const current = (videoId: string, version: number) =>
    db('lessonVideos').where({ id: videoId, version, status: 'processing' });

  async function fail(videoId: string, version: number, reason: string, code: string): Promise<void> {
    await current(videoId, version).update({
      status: 'failed',
      error: reason.slice(0, 1000),
      errorCode: code,
      progress: 0,
    });
    await storage.deletePrefix(versionPrefix(videoId, version)).catch(() => undefined);
  }

  /** Progress as ffmpeg reports it: the first at once, then at most once a second, each after the one before. */
  function progressWriter(videoId: string, version: number) {
    let lastAt = 0;
    let lastValue = 0;
    let chain = Promise.resolve();
    return {
      report(percent: number) {
        const now = Date.now();
        if (percent <= lastValue || now - lastAt < PROGRESS_EVERY_MS) return;
        lastAt = now;
        lastValue = percent;
        chain = chain
          .then(() => current(videoId, version).update({ progress: percent }))
          .then(
            () => undefined,
            (error: unknown) => logger.warn({ err: error, videoId }, 'could not record video progress'),
          );
      },
      settled: () => chain,
    };
  }

  async function upload(outputDir: string, videoId: string, version: number, renditionHeights: number[]) {
    const put = async (file: string, key: string) =>
      storage.put(key, createReadStream(file), CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream');
    // Segments first, then the playlists that name them, the master last: whoever finds a playlist finds its files.
    for (const height of renditionHeights) {
      const folder = path.join(outputDir, renditionName(height));
      const segments = (await readdir(folder)).filter((name) => name.endsWith('.ts'));
      await runAll(segments, UPLOADS_AT_ONCE, (name) =>
        put(path.join(folder, name), `${renditionPrefix(videoId, version, height)}${name}`),
      );
      await put(path.join(folder, 'index.m3u8'), `${renditionPrefix(videoId, version, height)}index.m3u8`);
    }
    const poster = path.join(outputDir, 'poster.jpg');
    const hasPoster = await stat(poster).then(
      (found) => found.size > 0,
      () => false,
    );
    if (hasPoster) await put(poster, posterKey(videoId, version));
    await put(path.join(outputDir, 'master.m3u8'), masterKey(videoId, version));
    return { hasPoster };
  }

  async function processVideo({ videoId, version }: ProcessVideoData, job: RunningJob): Promise<void> {
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
    const progress = progressWriter(videoId, version);
    try {
      const source = await storage.get(video.sourceKey);
      if (!source)
        throw new VideoUnusable(
          'video-source-missing',
          'the uploaded file is missing from the storage: upload the video again',
        );
      const input = path.join(workDir, `source${path.extname(video.sourceKey)}`);
      await pipeline(source.body, createWriteStream(input));

      const probed = await probeVideo(tools, input, video.sourceName, job.signal);
      const renditions = planRenditions(probed);
      const outputDir = path.join(workDir, 'out');
      await transcode(tools, {
        input,
        name: video.sourceName,
        outputDir,
        source: probed,
        renditions,
        onProgress: progress.report,
        signal: job.signal,
        timeoutMs: transcodeTimeoutMs(probed.durationMs),
      });
      await progress.settled();

      const entries: MasterEntry[] = [];
      let measuredMs = 0;
      for (const rendition of renditions) {
        const folder = path.join(outputDir, renditionName(rendition.height));
        const segments = playlistSegments(await readFile(path.join(folder, 'index.m3u8'), 'utf8'));
        if (!segments.length)
          throw new VideoUnusable('video-no-segments', 'ffmpeg made no video segments: the file may be damaged');
        const sized = await Promise.all(
          segments.map(async (s) => ({ seconds: s.seconds, bytes: (await stat(path.join(folder, s.uri))).size })),
        );
        entries.push({ rendition, ...measureBandwidth(sized) });
        measuredMs = Math.round(segments.reduce((sum, s) => sum + s.seconds, 0) * 1000);
      }
      const frameRate = outputFrameRate(probed);
      await writeFile(
        path.join(outputDir, 'master.m3u8'),
        masterPlaylist(entries, { hasAudio: probed.hasAudio, frameRate }),
      );
      const heights = renditions.map((r) => r.height);
      const { hasPoster } = await upload(outputDir, videoId, version, heights);

      const ready = await current(videoId, version).update({
        status: 'ready',
        progress: 100,
        error: null,
        durationMs: probed.durationMs ?? Math.max(1, measuredMs),
        width: probed.width,
        height: probed.height,
        renditionHeights: heights,
        hlsKey: masterKey(videoId, version),
        posterKey: hasPoster ? posterKey(videoId, version) : null,
        processedAt: clock.now(),
      });
      if (!ready) {
        // Replaced or removed while this ran: what it made is nobody's.
        await storage.deletePrefix(versionPrefix(videoId, version));
        return;
      }
      changed();
      // What earlier versions made goes now that this one plays.
      for (let old = 1; old < version; old++) {
        await storage.deletePrefix(versionPrefix(videoId, old)).catch((error: unknown) => {
          logger.warn({ err: error, videoId, version: old }, 'could not remove an old video version');
        });
      }
      logger.info({ videoId, version, renditions: heights, durationMs: probed.durationMs }, 'video ready');
    } catch (error) {
      await progress.settled();
      if (error instanceof VideoUnusable || error instanceof VideoToolMissing) {
        // A missing program is the operator's to fix; a file that is no video is staff's (the console says why).
        const level = error instanceof VideoToolMissing ? 'warn' : 'info';
        logger[level]({ videoId, version, reason: error.message }, 'video processing failed');
        await fail(videoId, version, error.message, error.code);
        return;
      }
      if (error instanceof VideoRunAborted) {
        // Shutting down: back to the queue, which runs it again later (here or on another replica).
        await current(videoId, version)
          .update({ status: 'queued', progress: 0 })
          .catch(() => undefined);
        throw error;
      }
      if (job.final) {
        const reason = `processing failed (${error instanceof Error ? error.message : String(error)}): press Retry`;
        await fail(videoId, version, reason, 'video-processing-failed');
        return;
      }
      await current(videoId, version).update({ status: 'queued', progress: 0 });
      throw error;
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  }

  jobs.define<ProcessVideoData>({
    name: PROCESS_VIDEO_JOB,
    retryLimit: 2,
    retryDelaySeconds: 60,
    expireInSeconds: JOB_EXPIRY_SECONDS,
    run: processVideo,
  });
}
