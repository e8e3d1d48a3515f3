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

/** PUT /api/store/lessons/:lessonId/position */
export interface PositionAnswer {
  /** The position saved (clamped to the video's length). */
  positionSeconds: number;
  /** Whether the lesson is complete now (by this write or before). */
  completed: boolean;
  /** The progress after this write, when this write completed the lesson (as the Complete button answers). */
  progress: ProgressAnswer | null;
}
