import { z } from 'zod';

// The console's lesson videos: what it sends and what it gets back. No Node module here (the apps import types).

/** A lesson video's state: queued → processing → ready, or failed (with a reason and a Retry). */
export type VideoStatus = 'queued' | 'processing' | 'ready' | 'failed';

/** One caption file of a video, as the console lists it. */
export interface CaptionSummary {
  /** BCP 47 ('en', 'pt-BR'). */
  language: string;
  label: string;
  cueCount: number;
}

/**
 * A lesson video as the console sees it (`GET /api/admin/videos`, `/videos/:id`, `/lessons/:lessonId/video`, and
 * every write's answer). `progress` is 0–100 while processing; `error` says why it failed, in words staff can act
 * on, and `errorCode` the same as a stable code (`video-playlist-refused`, `video-unreadable` …); `posterUrl`
 * previews the poster in the console (null until one is made).
 */
export interface VideoRecord {
  id: string;
  lessonId: string;
  lessonTitle: string | null;
  status: VideoStatus;
  progress: number;
  error: string | null;
  errorCode: string | null;
  sourceName: string;
  sourceSize: number;
  durationMs: number | null;
  width: number | null;
  height: number | null;
  renditionHeights: number[];
  posterUrl: string | null;
  captions: CaptionSummary[];
  processedAt: Date | null;
  updatedAt: Date;
}

/** The tus upload endpoint (POST creates an upload, PATCH sends bytes, HEAD tells the offset, DELETE drops it). */
export const VIDEO_UPLOAD_PATH = '/api/admin/uploads/videos';

/** What a tus upload of a lesson video says about itself in its Upload-Metadata. */
export const UploadMetadata = z.object({
  lessonId: z.uuid('must be a lesson id'),
  filename: z.string().trim().min(1, 'is required').max(255, 'must be at most 255 characters'),
  filetype: z.string().max(127).optional(),
});
export type UploadMetadata = z.infer<typeof UploadMetadata>;

const LANGUAGE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/** PUT/DELETE /api/admin/videos/:id/captions/:language */
export const CaptionParams = z.object({
  id: z.uuid('must be an id'),
  language: z.string().max(35).regex(LANGUAGE, 'must be a language tag such as en or pt-BR'),
});

/** PUT /api/admin/videos/:id/captions/:language: the file's text (WebVTT) and what the player's menu calls it. */
export const CaptionBody = z
  .object({
    label: z.string().trim().min(1, 'is required').max(60, 'must be at most 60 characters'),
    vtt: z.string().min(1, 'is required'),
  })
  .strict();
export type CaptionBody = z.infer<typeof CaptionBody>;

/** GET /api/admin/lessons/:lessonId/video */
export const LessonIdParam = z.object({ lessonId: z.uuid('must be an id') });
