/**
 * What processing makes of a source: the HLS ladder it allows and the master playlist that lists it. Pure
 * functions: ffmpeg.ts runs them, make-renditions.ts measures what they describe.
 */

/** One HLS rendition: an H.264 stream at this size, its bitrate cap, and how players are told its codec. */
export interface Rendition {
  height: number;
  width: number;
  /** The cap on the video bitrate (constant quality below it): what a player must be able to sustain. */
  maxrateKbps: number;
  profile: 'main' | 'high';
  level: string;
  /** RFC 6381 codec string of the video stream (avc1.PPCCLL), for the master playlist's CODECS. */
  videoCodec: string;
}

interface Rung {
  height: number;
  maxrateKbps: number;
  profile: Rendition['profile'];
  level: string;
  videoCodec: string;
}

// Levels chosen for up to 60 frames per second at each size (3.1: 360p60, 4.0: 720p60, 4.2: 1080p60).
const LADDER: readonly Rung[] = [
  { height: 360, maxrateKbps: 900, profile: 'main', level: '3.1', videoCodec: 'avc1.4d401f' },
  { height: 720, maxrateKbps: 3000, profile: 'main', level: '4.0', videoCodec: 'avc1.4d4028' },
  { height: 1080, maxrateKbps: 6000, profile: 'high', level: '4.2', videoCodec: 'avc1.64002a' },
];
const SMALL: Omit<Rung, 'height'> = { maxrateKbps: 500, profile: 'main', level: '3.1', videoCodec: 'avc1.4d401f' };

/** The AAC-LC stream every rendition carries when the source has sound. */
export const AUDIO_CODEC = 'mp4a.40.2';
export const AUDIO_KBPS = 128;

const even = (value: number) => Math.max(2, 2 * Math.round(value / 2));

/**
 * The renditions a source of this displayed size allows: 360p, 720p and 1080p up to its own height (never
 * upscaled); a source below 360p gets one rendition at its own height. Widths keep the displayed aspect ratio.
 */
export function planRenditions(source: { width: number; height: number }): Rendition[] {
  const widthAt = (height: number) => even((source.width * height) / source.height);
  const fitting = LADDER.filter((rung) => rung.height <= source.height);
  if (!fitting.length) {
    const height = even(source.height);
    return [{ ...SMALL, height, width: widthAt(height) }];
  }
  return fitting.map((rung) => ({ ...rung, width: widthAt(rung.height) }));
}

/** A rendition's folder and name in playlists and storage: `720p`. */
export const renditionName = (height: number) => `${height}p`;

/** The segments of a media playlist, with their durations in seconds (what EXTINF says). */
export function playlistSegments(playlist: string): { uri: string; seconds: number }[] {
  const segments: { uri: string; seconds: number }[] = [];
  let pending: number | null = null;
  for (const line of playlist.split(/\r?\n/)) {
    const extinf = /^#EXTINF:([\d.]+)/.exec(line);
    if (extinf) pending = Number(extinf[1]);
    else if (line && !line.startsWith('#') && pending !== null) {
      segments.push({ uri: line.trim(), seconds: pending });
      pending = null;
    }
  }
  return segments;
}

/**
 * A rendition's BANDWIDTH (the highest bitrate of any one segment, as the HLS spec defines it) and
 * AVERAGE-BANDWIDTH, in bits per second, from its segments' sizes and durations.
 */
export function measureBandwidth(segments: { seconds: number; bytes: number }[]): { peak: number; average: number } {
  let peak = 0;
  let bytes = 0;
  let seconds = 0;
  for (const segment of segments) {
    if (segment.seconds > 0) peak = Math.max(peak, (segment.bytes * 8) / segment.seconds);
    bytes += segment.bytes;
    seconds += segment.seconds;
  }
  const average = seconds > 0 ? (bytes * 8) / seconds : 0;
  return { peak: Math.ceil(peak), average: Math.ceil(average) };
}

export interface MasterEntry {
  rendition: Rendition;
  peak: number;
  average: number;
}

/**
 * The master playlist: one variant per rendition, lowest first, each with BANDWIDTH, AVERAGE-BANDWIDTH, RESOLUTION,
 * CODECS (and FRAME-RATE when known), pointing to its media playlist by a relative path (`720p/index.m3u8`), so
 * whatever address serves the master serves the rest.
 */
export function masterPlaylist(
  entries: MasterEntry[],
  { hasAudio, frameRate }: { hasAudio: boolean; frameRate: number | null },
) {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:6', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const { rendition, peak, average } of [...entries].sort((a, b) => a.rendition.height - b.rendition.height)) {
    const codecs = hasAudio ? `${rendition.videoCodec},${AUDIO_CODEC}` : rendition.videoCodec;
    const attributes = [
      `BANDWIDTH=${peak}`,
      `AVERAGE-BANDWIDTH=${average}`,
      `RESOLUTION=${rendition.width}x${rendition.height}`,
      `CODECS="${codecs}"`,
      ...(frameRate ? [`FRAME-RATE=${frameRate.toFixed(3)}`] : []),
    ];
    lines.push(`#EXT-X-STREAM-INF:${attributes.join(',')}`, `${renditionName(rendition.height)}/index.m3u8`);
  }
  return `${lines.join('\n')}\n`;
}
