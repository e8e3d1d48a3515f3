export const PROCESS_VIDEO_JOB = 'process-video';

/** The `process-video` job's data (process-video.ts runs it). */
export interface ProcessVideoData {
  videoId: string;
  /** The source version the job was added for: a run for an older one does nothing. */
  version: number;
}
