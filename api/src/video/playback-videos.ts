import type { ReadCaches } from '../cache/read-cache';
import type { Clock } from '../clock';
import type { Db } from '../db/connection';
import type { LessonVideo, VideoCaption } from './models';
import type { VideoViewer } from '../learning/lesson-page';
import type { LessonVideoView, Transcript } from '../learning/schemas';
import { linkLifetimeMs, signMediaToken } from './playback-token';
import { parseWebVtt } from './webvtt';

/** Where signed video links live: `/media/videos/<token>/<file>`. */
export const VIDEO_MEDIA_PATH = '/media/videos';

/** A caption file as the player and the transcript need it. */
export interface CaptionFile {
  language: string;
  label: string;
  vtt: string;
  cues: Transcript['cues'];
}

/**
 * Lesson videos as learners see them: the rows and captions (kept per READ_CACHE_MS like the rest of a course's
 * content: staff change them, learners read them), and the lesson answer's `video` with freshly signed links.
 */
export function lessonVideos({
  db,
  clock,
  caches,
  key,
}: {
  db: Db;
  clock: Clock;
  caches: ReadCaches;
  key: () => Promise<Buffer>;
}) {
  const byLesson = caches.cached(
    async (lessonId: string): Promise<LessonVideo | null> =>
      (await db('lessonVideos').where({ lessonId }).first()) ?? null,
  );
  const byId = caches.cached(
    async (videoId: string): Promise<LessonVideo | null> =>
      (await db('lessonVideos').where({ id: videoId }).first()) ?? null,
  );
  /** The captions, parsed once (each was checked to be WebVTT when uploaded). */
  const captionsOf = caches.cached(async (videoId: string): Promise<CaptionFile[]> => {
    const rows: VideoCaption[] = await db('videoCaptions').where({ videoId }).orderBy('language');
    return rows.map((row) => ({ language: row.language, label: row.label, vtt: row.vtt, cues: cuesOf(row.vtt) }));
  });

  return {
    byLesson,
    byId,
    captionsOf,

    /** The lesson answer's `video`: null when the lesson has none; links only when it is open and ready. */
    async view(lessonId: string, viewer: VideoViewer): Promise<LessonVideoView | null> {
      const video = await byLesson(lessonId);
      if (!video) return null;
      const closed: LessonVideoView = {
        status: video.status,
        hls: null,
        poster: null,
        captions: [],
        durationSeconds: video.durationMs === null ? null : video.durationMs / 1000,
        positionSeconds: viewer.positionMs / 1000,
        transcript: [],
      };
      if (!viewer.open || video.status !== 'ready' || !video.hlsKey) return closed;
      const token = signMediaToken(await key(), {
        videoId: video.id,
        version: video.version,
        userId: viewer.free ? null : viewer.userId,
        expiresAt: Math.floor((clock.now().getTime() + linkLifetimeMs(video.durationMs)) / 1000),
      });
      const base = `${VIDEO_MEDIA_PATH}/${token}`;
      const captions = await captionsOf(video.id);
      return {
        ...closed,
        hls: `${base}/master.m3u8`,
        poster: video.posterKey ? `${base}/poster.jpg` : null,
        captions: captions.map((c) => ({
          language: c.language,
          label: c.label,
          src: `${base}/captions/${c.language}.vtt`,
        })),
        transcript: captions.map((c) => ({ language: c.language, label: c.label, cues: c.cues })),
      };
    },
  };
}

/** A caption file's cues; none when it no longer parses (it did when uploaded), rather than no lesson at all. */
function cuesOf(vtt: string): Transcript['cues'] {
  try {
    return parseWebVtt(vtt).cues;
  } catch {
    return [];
  }
}

export type LessonVideos = ReturnType<typeof lessonVideos>;
