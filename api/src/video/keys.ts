import { renditionName } from './renditions';

// Where a lesson video's bytes live in the media storage (api/src/media/storage.ts). Everything of one video is
// under `videos/<id>/`; what one source made is under `videos/<id>/v<version>/`, so a new source never overwrites
// what learners are watching, and the old version goes as a whole once the new one is ready.

export const videoPrefix = (videoId: string) => `videos/${videoId}/`;

export const versionPrefix = (videoId: string, version: number) => `videos/${videoId}/v${version}/`;

/** The upload's extension, lowercased, when it is a plain one (`mp4`, `mov`, `webm`); else `bin`. */
export function extensionOf(filename: string): string {
  const match = /\.([A-Za-z0-9]{1,5})$/.exec(filename.trim());
  return match ? match[1]!.toLowerCase() : 'bin';
}

/** The source as uploaded: `videos/<id>/source/v<version>.<ext>`. */
export const sourceKey = (videoId: string, version: number, filename: string) =>
  `videos/${videoId}/source/v${version}.${extensionOf(filename)}`;

/** The master playlist (the row's `hlsKey`); renditions and segments sit beside it, named relative to it. */
export const masterKey = (videoId: string, version: number) => `${versionPrefix(videoId, version)}master.m3u8`;

export const renditionPrefix = (videoId: string, version: number, height: number) =>
  `${versionPrefix(videoId, version)}${renditionName(height)}/`;

export const posterKey = (videoId: string, version: number) => `${versionPrefix(videoId, version)}poster.jpg`;

const VIDEO_TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  m4v: 'video/x-m4v',
  mov: 'video/quicktime',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  avi: 'video/x-msvideo',
};

/** The content type a video file's name suggests (the command line has no browser to say it). */
export const videoTypeOf = (filename: string) => VIDEO_TYPES[extensionOf(filename)] ?? 'application/octet-stream';
