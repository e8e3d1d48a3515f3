import { table } from '../db/base-model';

export const VIDEO_STATUSES = ['queued', 'processing', 'ready', 'failed'] as const;
export type VideoStatus = (typeof VIDEO_STATUSES)[number];

/** A lesson's video: its uploaded source and, once processed, its HLS renditions and poster in the media storage. */
export class LessonVideo extends table('lessonVideos') {
  declare id: string;
  declare lessonId: string;
  declare status: VideoStatus;
  /** Processing's progress, 0–100. */
  declare progress: number;
  /** Why processing failed, in words staff can act on. */
  declare error: string | null;
  /** The same as a stable code (`video-playlist-refused`, `ffmpeg-missing` …). */
  declare errorCode: string | null;
  /** Bumped by each new source: what processing writes is under `videos/<id>/v<version>/`. */
  declare version: number;
  declare sourceKey: string;
  declare sourceName: string;
  declare sourceSize: number;
  declare durationMs: number | null;
  declare width: number | null;
  declare height: number | null;
  /** The heights of the HLS renditions made (360, 720, 1080 as the source allows). */
  declare renditionHeights: number[];
  /** The master playlist's key. */
  declare hlsKey: string | null;
  declare posterKey: string | null;
  declare processedAt: Date | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}

/** One cue of a caption file: the transcript is the cues in order. */
export interface Cue {
  start: number;
  end: number;
  text: string;
}

export class VideoCaption extends table('videoCaptions') {
  declare id: string;
  declare videoId: string;
  /** BCP 47 ('en', 'pt-BR'). */
  declare language: string;
  declare label: string;
  /** The WebVTT file as uploaded (checked to be one); its cues are the transcript. */
  declare vtt: string;
  declare createdAt: Date;
  declare updatedAt: Date;
}

/** Where a learner is in a lesson's video, resumed on any device. */
export class VideoPosition extends table('videoPositions', { idColumn: ['userId', 'lessonId'] }) {
  declare userId: string;
  declare lessonId: string;
  declare positionMs: number;
  declare updatedAt: Date;
}
