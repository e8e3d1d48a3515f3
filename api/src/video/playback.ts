import type { Config } from '../config';
import type { Db } from '../db/connection';
import { prepared } from '../db/prepared';
import { AppError } from '../shared/errors';
import type { User } from '../identity/models';
import type { LearningService } from '../learning/learning';
import type { PositionAnswer } from './playback.schemas';
import type { LessonVideos } from './playback-videos';

interface Deps {
  db: Db;
  config: Pick<Config, 'VIDEO_COMPLETE_PERCENT'>;
  learning: LearningService;
  videos: LessonVideos;
}

/**
 * Saves the position and says, in the same statement, whether the lesson was complete already. Prepared by name:
 * every learner watching sends one every few seconds.
 */
const SAVE_POSITION = `
  WITH saved AS (
    INSERT INTO video_positions (user_id, lesson_id, position_ms) VALUES (:userId, :lessonId, :positionMs)
    ON CONFLICT (user_id, lesson_id) DO UPDATE SET position_ms = excluded.position_ms, updated_at = now()
    RETURNING position_ms
  )
  SELECT position_ms AS "positionMs",
         EXISTS (SELECT 1 FROM lesson_progress WHERE user_id = :userId AND lesson_id = :lessonId AND completed_at IS NOT NULL) AS completed
    FROM saved`;

/**
 * Watch progress (issue 18): where each learner is in each lesson's video, resumed on any device, and the lesson
 * completed once they have watched VIDEO_COMPLETE_PERCENT of it, through the same path as the Complete button.
 */
export function playbackService({ db, config, learning, videos }: Deps) {
  return {
    /**
     * Saves where the learner is (clamped to the video's length) in a lesson they may open (else lesson-locked or
     * not-found, nothing written); completes the lesson when the position reaches the threshold.
     */
    async savePosition(
      user: Pick<User, 'id'>,
      lessonId: string,
      positionSeconds: number,
      country: string,
      courseSlugOrId?: string,
    ): Promise<PositionAnswer> {
      await learning.assertOpen(lessonId, { user, country }, courseSlugOrId);
      const video = await videos.byLesson(lessonId);
      if (!video) throw new AppError('not-found', 'This lesson has no video.');
      if (video.status !== 'ready' || !video.durationMs) {
        throw new AppError('video-not-ready', 'This lesson’s video is not ready to watch yet.');
      }
      const positionMs = Math.min(Math.round(positionSeconds * 1000), video.durationMs);
      const { rows } = await db
        .raw(SAVE_POSITION, { userId: user.id, lessonId, positionMs })
        .options(prepared(db, 'save-video-position'));
      const saved = rows[0] as { positionMs: number; completed: boolean };
      const answer = { positionSeconds: saved.positionMs / 1000, completed: saved.completed, progress: null };
      const watched = positionMs * 100 >= video.durationMs * config.VIDEO_COMPLETE_PERCENT;
      // A quiz lesson is completed by passing its quiz, however much of its video was watched.
      if (!watched || saved.completed || (await learning.completedByQuiz(lessonId))) return answer;
      const progress = await learning.setCompleted(user, lessonId, true, country, courseSlugOrId);
      return { ...answer, completed: true, progress };
    },
  };
}

export type PlaybackService = ReturnType<typeof playbackService>;
