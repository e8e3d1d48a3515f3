import path from 'node:path';
import type { Readable } from 'node:stream';
import type { ReadCaches } from '../cache/read-cache';
import type { Clock } from '../clock';
import { AppError } from '../shared/errors';
import type { LearningService } from '../learning/learning';
import type { ByteRange, MediaStorage } from '../media/storage';
import type { LessonVideo } from './models';
import { readMediaToken } from './playback-token';
import type { LessonVideos } from './playback-videos';

/** A video file as served: its bytes (all, or the range asked for), what they are, how long a browser may keep them. */
export interface MediaAnswer {
  body: Readable | Buffer;
  contentType: string;
  /** The whole file's size. */
  size: number;
  /** The bytes `body` holds, when a range was asked for. */
  range?: { start: number; end: number };
  /** The link's seconds left: a browser keeps nothing past them. */
  maxAgeSeconds: number;
}

const PLAYLIST = 'application/vnd.apple.mpegurl';

/** What a link may name in a video: a file of its storage folder, or a caption file (kept in the database). */
type VideoFile = { storageKey: string; contentType: string } | { captionLanguage: string };

/** The files of one version of a video a link may fetch (`null`: anything else, a 404). */
function fileOf(video: LessonVideo, file: string): VideoFile | null {
  const folder = path.posix.dirname(video.hlsKey!);
  if (file === 'master.m3u8') return { storageKey: video.hlsKey!, contentType: PLAYLIST };
  if (file === 'poster.jpg') return video.posterKey ? { storageKey: video.posterKey, contentType: 'image/jpeg' } : null;
  const rendition = /^(\d{1,4})p\/(index\.m3u8|seg-\d{5}\.ts)$/.exec(file);
  if (rendition) {
    if (!video.renditionHeights.includes(Number(rendition[1]))) return null;
    const name = rendition[2]!;
    return {
      storageKey: `${folder}/${rendition[1]}p/${name}`,
      contentType: name === 'index.m3u8' ? PLAYLIST : 'video/mp2t',
    };
  }
  const caption = /^captions\/([a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)\.vtt$/.exec(file);
  return caption ? { captionLanguage: caption[1]! } : null;
}

/** A `Range: bytes=<start>-[<end>]` header; anything else (several ranges, a suffix) is answered whole, as HTTP allows. */
export function parseRange(header: string | undefined): ByteRange | undefined {
  const match = header && /^bytes=(\d{1,15})-(\d{1,15})?$/.exec(header.trim());
  if (!match) return undefined;
  const start = Number(match[1]);
  const end = match[2] === undefined ? undefined : Number(match[2]);
  return end !== undefined && end < start ? undefined : { start, ...(end === undefined ? {} : { end }) };
}

const unsatisfiable = (size: number) =>
  new AppError('range-not-satisfiable', 'The range asked for is past the end of the file.', undefined, {
    'Content-Range': `bytes */${size}`,
  });

interface Deps {
  clock: Clock;
  caches: ReadCaches;
  storage: MediaStorage;
  learning: LearningService;
  videos: LessonVideos;
  key: () => Promise<Buffer>;
}

/**
 * Serves signed video links (`/media/videos/<token>/<file>`): only files of the video version the link names,
 * only to the learner it was made for (anyone for a free lesson's), and only while they may still open the lesson:
 * that is checked again on every request, through a cache of READ_CACHE_MS, so a refund or a revoked seat closes
 * the video within that time even for a link that has hours left.
 */
export function videoMedia({ clock, caches, storage, learning, videos, key }: Deps) {
  /** Why a viewer may not open a lesson (null: they may), per learner (or anyone), lesson and country. */
  const refusal = caches.cached(async (entry: string): Promise<AppError | null> => {
    const [userId, lessonId, country] = entry.split(' ') as [string, string, string];
    try {
      await learning.assertOpen(lessonId, { user: userId === '-' ? null : { id: userId }, country });
      return null;
    } catch (error) {
      if (error instanceof AppError) return error;
      throw error;
    }
  });

  async function read(file: VideoFile, video: LessonVideo, range: ByteRange | undefined) {
    if ('captionLanguage' in file) {
      const caption = (await videos.captionsOf(video.id)).find((c) => c.language === file.captionLanguage);
      if (!caption) return null;
      const bytes = Buffer.from(caption.vtt);
      if (!range) return { body: bytes, contentType: 'text/vtt; charset=utf-8', size: bytes.length };
      const end = Math.min(range.end ?? bytes.length - 1, bytes.length - 1);
      if (range.start > end) throw unsatisfiable(bytes.length);
      return {
        body: bytes.subarray(range.start, end + 1),
        contentType: 'text/vtt; charset=utf-8',
        size: bytes.length,
        range: { start: range.start, end },
      };
    }
    const stored = await storage.get(file.storageKey, range);
    if (stored) return { ...stored, contentType: file.contentType };
    if (!range) return null;
    // Nothing for the range: past the end of a file that is there, or no file.
    const whole = await storage.get(file.storageKey);
    if (!whole) return null;
    whole.body.destroy();
    throw unsatisfiable(whole.size);
  }

  return {
    /** One file of a signed link, for the signed-in user (or nobody) from a country; throws 403/404 with why not. */
    async serve(
      token: string,
      file: string,
      viewer: { userId: string | null; country: string },
      range?: ByteRange,
    ): Promise<MediaAnswer> {
      const now = clock.now();
      const grant = readMediaToken(await key(), token, now);
      if (grant.userId !== null && grant.userId !== viewer.userId) {
        throw new AppError('media-not-yours', 'This video link was made for someone else: open the lesson yourself.');
      }
      const video = await videos.byId(grant.videoId);
      if (!video || video.version !== grant.version || video.status !== 'ready' || !video.hlsKey) {
        throw new AppError('media-link-invalid', 'This video has changed since the link was made: reload the lesson.');
      }
      const target = fileOf(video, file);
      if (!target) throw new AppError('not-found', 'This video has no such file.');
      const country = grant.userId === null ? '' : viewer.country; // a free lesson is free from anywhere
      const refused = await refusal(`${grant.userId ?? '-'} ${video.lessonId} ${country}`);
      if (refused) throw refused;
      const found = await read(target, video, range);
      if (!found) throw new AppError('not-found', 'This video has no such file.');
      return { ...found, maxAgeSeconds: Math.max(0, grant.expiresAt - Math.ceil(now.getTime() / 1000)) };
    },
  };
}

export type VideoMedia = ReturnType<typeof videoMedia>;
