import type { CaptionBody, VideoRecord, VideoStatus } from '@contract/video/schemas';
import type { Wire } from '@contract/shared/wire';

export type { VideoStatus };

/** A lesson video as the console sees it (api/src/video/schemas.ts): its state, its results and its captions. */
export type Video = Wire<VideoRecord>;

/** What a caption file is sent as: its label and the file's text (WebVTT), read in the browser. */
export type CaptionUpload = CaptionBody;

/** While queued or processing the state changes by itself: the console asks again until it settles. */
export const isUnderWay = (video: Pick<Video, 'status'> | null | undefined) =>
  video?.status === 'queued' || video?.status === 'processing';

/** How often a video under way is asked for again. */
export const POLL_MS = 2000;
