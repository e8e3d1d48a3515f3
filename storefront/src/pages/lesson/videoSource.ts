/*
 * How a lesson's HLS video reaches its <video>: Safari (and any browser without Media Source Extensions, such as
 * iOS before 17.1) plays HLS itself; everywhere else hls.js feeds the element through MSE. hls.js's light build
 * (no in-stream subtitles, alternate audio or DRM, none of which our videos have: captions are sidecar <track>s)
 * is imported only here, when a lesson has a ready video, so no other page loads it. Its demuxer runs in its worker
 * (a file of this site: the ES module build cannot make one itself), off the page's thread.
 */
import type HlsType from 'hls.js';
import workerPath from 'hls.js/dist/hls.worker.js?url';

const HLS_TYPE = 'application/vnd.apple.mpegurl';

/** Why playback stopped: this browser plays neither HLS nor MSE, or anything else (a network error, expired links). */
export interface PlaybackFailure {
  unsupported: boolean;
}

interface SourceOptions {
  /** Seconds to start at. */
  startAt: number;
  onFatal: (failure: PlaybackFailure) => void;
}

/** A source attached: how to take it away again (which empties the element), and whether the browser plays it. */
interface Attached {
  detach: () => void;
  native: boolean;
}

/**
 * Safari's own player: Apple's reference implementation, with AirPlay. Chromium now answers canPlayType for HLS too,
 * but hls.js there keeps one behaviour across Chrome, Edge and Firefox (video.js decides the same way).
 */
function prefersNative(media: HTMLVideoElement): boolean {
  if (media.canPlayType(HLS_TYPE) === '') return false;
  const mse = 'MediaSource' in window || 'ManagedMediaSource' in window;
  return !mse || navigator.vendor.startsWith('Apple');
}

function attachNative(media: HTMLVideoElement, src: string, { startAt, onFatal }: SourceOptions): Attached {
  const seek = () => {
    if (startAt > 0) media.currentTime = startAt;
  };
  const failed = () => onFatal({ unsupported: false });
  media.addEventListener('loadedmetadata', seek, { once: true });
  media.addEventListener('error', failed);
  media.src = src;
  return {
    native: true,
    detach: () => {
      media.removeEventListener('loadedmetadata', seek);
      media.removeEventListener('error', failed);
      media.removeAttribute('src');
      media.load();
    },
  };
}

let loading: Promise<typeof HlsType> | null = null;
const loadHls = () => {
  loading ??= import('hls.js/light').then((module) => module.default);
  loading.catch(() => (loading = null)); // a failed download is tried again on the next attempt
  return loading;
};

/**
 * Plays `src` (a master playlist) in `media` from `startAt`. Errors that end playback go to `onFatal`; a decoding
 * error is recovered from once first.
 */
export async function attachSource(media: HTMLVideoElement, src: string, options: SourceOptions): Promise<Attached> {
  if (prefersNative(media)) return attachNative(media, src, options);
  const Hls = await loadHls();
  if (!Hls.isSupported()) {
    if (media.canPlayType(HLS_TYPE) !== '') return attachNative(media, src, options);
    options.onFatal({ unsupported: true });
    return { native: false, detach: () => {} };
  }
  const hls = new Hls({
    startPosition: options.startAt > 0 ? options.startAt : -1,
    // No 1080p for a phone's small player: the rendition follows the player's size (and the screen's density).
    capLevelToPlayerSize: true,
    workerPath,
  });
  let recovered = false;
  hls.on(Hls.Events.ERROR, (_event, data) => {
    // 403: the link expired, or the learner lost access. hls.js would ask again with backoff (six times, over half
    // a minute, when there is no other rendition to try): stop, and let the player ask for fresh links at once.
    const refused = data.response?.code === 403;
    if (!data.fatal && !refused) return;
    if (data.type === Hls.ErrorTypes.MEDIA_ERROR && !recovered) {
      recovered = true;
      hls.recoverMediaError();
      return;
    }
    hls.stopLoad();
    options.onFatal({ unsupported: false });
  });
  hls.loadSource(src);
  hls.attachMedia(media);
  return { native: false, detach: () => hls.destroy() };
}
