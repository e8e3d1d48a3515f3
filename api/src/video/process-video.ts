import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db/connection';
import type { JobQueue } from '../jobs/queue';
import type { Logger } from '../logger';
import type { MediaStorage } from '../media/storage';
import { bindDeps } from '../shared/bind-deps';
import { videoTools } from './ffmpeg';
import { runVideoJob } from './run-video-job';
import { PROCESS_VIDEO_JOB, type ProcessVideoData } from './video-job';

export { PROCESS_VIDEO_JOB } from './video-job';

/** A run is failed by the queue after this (its process died); every timeout inside stays well under it. */
const JOB_EXPIRY_SECONDS = 6 * 60 * 60;

interface VideoProcessingDeps {
  db: Db;
  storage: MediaStorage;
  jobs: JobQueue;
  logger: Logger;
  clock: Clock;
  config: Pick<Config, 'FFMPEG_PATH' | 'FFPROBE_PATH' | 'VIDEO_X264_PRESET'>;
  /** Called when a video became ready: the read caches forget, so outlines show the new length at once. */
  changed?: () => void;
}

/**
 * The `process-video` job: the source of one version of a lesson's video becomes HLS renditions and a poster in the
 * storage (make-renditions.ts, store-renditions.ts). The row goes queued → processing (progress written at most once
 * a second, run-state.ts) → ready, or failed with a reason staff can act on (run-video-job.ts). Every write names the
 * version, so a run for a source since replaced changes nothing; the previous versions' outputs are removed once
 * this one is ready. A failure retrying cannot fix (not a video, ffmpeg missing) fails the video at once; anything
 * else (the storage or database away) is retried by the queue, and fails the video on the last run.
 */
export function defineVideoProcessing({ jobs, config, changed = () => {}, ...deps }: VideoProcessingDeps) {
  jobs.define<ProcessVideoData>({
    name: PROCESS_VIDEO_JOB,
    retryLimit: 2,
    retryDelaySeconds: 60,
    expireInSeconds: JOB_EXPIRY_SECONDS,
    run: bindDeps({ ...deps, changed, tools: videoTools(config) })(runVideoJob),
  });
}
