import { z } from 'zod';
import { Slug } from '../learning/schemas';
import type { ProgressAnswer } from '../learning/schemas';

// What learners send and receive about lesson videos. Type-only for the apps (no Node module here).

/** Where a learner is in a lesson's video; `course` names the course they watch it in (else the nearest). */
export const PositionBody = z
  .object({
    positionSeconds: z.number('must be a number of seconds').min(0, 'must not be negative').max(1e7),
    course: Slug.optional(),
  })
  .strict();

/**
 * A signed video link's path after `/media/videos/`: the token, then one of the video's files (which ones, the
 * service decides).
 */
export const MediaPath = z.object({
  token: z.string().max(200),
  file: z.string().max(100),
});

/** A lesson video's state (api/src/video/models.ts). */
export type VideoState = 'queued' | 'processing' | 'ready' | 'failed';

/** One caption file, for the player's <track>. */
export interface CaptionTrack {
  /** BCP 47 ('en', 'pt-BR'). */
  language: string;
  label: string;
  /** A signed link to the WebVTT file. */
  src: string;
}

/** A caption file's cues, in seconds: the transcript under the video. */
export interface Transcript {
  language: string;
  label: string;
  cues: { start: number; end: number; text: string }[];
}

/**
 * The `video` of a lesson's answer. Links (`hls`, `poster`, captions' `src`) are short-lived and same-origin, and
 * given only when the lesson is open to the viewer and the video is ready; otherwise null, and no captions or
 * transcript.
 */
export interface LessonVideoView {
  status: VideoState;
  /** The HLS master playlist. */
  hls: string | null;
  poster: string | null;
  captions: CaptionTrack[];
  durationSeconds: number | null;
  /** The signed-in learner's saved position (0 when signed out or never played). */
  positionSeconds: number;
  transcript: Transcript[];
}

/** PUT /api/store/lessons/:lessonId/position */
export interface PositionAnswer {
  /** The position saved (clamped to the video's length). */
  positionSeconds: number;
  /** Whether the lesson is complete now (by this write or before). */
  completed: boolean;
  /** The progress after this write, when this write completed the lesson (as the Complete button answers). */
  progress: ProgressAnswer | null;
}
