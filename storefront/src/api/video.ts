import type * as Learning from '@contract/learning/schemas';
import type * as Video from '@contract/video/playback.schemas';
import type { Wire } from '@contract/shared/wire';
import { putJson } from './client';

/** A lesson answer's `video`: its state, and (when open and ready) short-lived links, captions and transcript. */
export type LessonVideoView = Wire<Learning.LessonVideoView>;
export type Transcript = Wire<Learning.Transcript>;
export type PositionAnswer = Wire<Video.PositionAnswer>;

/**
 * PUT /api/store/lessons/:lessonId/position: where the learner is in the lesson's video (it completes the lesson
 * once they are far enough). `keepalive` for the write sent as the page goes away.
 */
export function saveVideoPosition(
  lessonId: string,
  positionSeconds: number,
  course: string | null,
  { keepalive = false } = {},
): Promise<PositionAnswer> {
  return putJson(
    `/api/store/lessons/${encodeURIComponent(lessonId)}/position`,
    course ? { positionSeconds, course } : { positionSeconds },
    { keepalive },
  );
}
