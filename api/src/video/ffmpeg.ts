import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { AUDIO_KBPS, renditionName, type Rendition } from './renditions';

/**
 * Where the two programs are (FFMPEG_PATH, FFPROBE_PATH; by default found on PATH), and the libx264 preset the
 * renditions are encoded with (VIDEO_X264_PRESET).
 */
export interface VideoTools {
  ffmpeg: string;
  ffprobe: string;
  x264Preset: Config['VIDEO_X264_PRESET'];
}

export const videoTools = (config: Pick<Config, 'FFMPEG_PATH' | 'FFPROBE_PATH' | 'VIDEO_X264_PRESET'>): VideoTools => ({
  ffmpeg: config.FFMPEG_PATH,
  ffprobe: config.FFPROBE_PATH,
  x264Preset: config.VIDEO_X264_PRESET,
});

/** What staff read on a video that cannot be processed because the programs are not there. */
export const FFMPEG_MISSING =
  'ffmpeg is not installed on this server: install it (Debian/Ubuntu: apt-get install ffmpeg) and press Retry';

/** ffmpeg or ffprobe could not be started (not installed, or FFMPEG_PATH/FFPROBE_PATH point nowhere). */
export class VideoToolMissing extends Error {
  readonly code = 'ffmpeg-missing';
  constructor(readonly program: string) {
    super(FFMPEG_MISSING);
    this.name = 'VideoToolMissing';
  }
}

/**
 * The source cannot become a video lesson as it is; the message says why in words staff can act on, the code
 * (`video-playlist-refused`, `video-unreadable` …) says it for programs.
 */
export class VideoUnusable extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'VideoUnusable';
  }
}

/** The run was stopped: the server is shutting down (or the program was interrupted). */
export class VideoRunAborted extends Error {
  constructor() {
    super('processing was stopped (the server is shutting down)');
    this.name = 'VideoRunAborted';
  }
}

interface RunOptions {
  signal?: AbortSignal;
  timeoutMs: number;
  /** What the timeout means, for the error. */
  timeoutMessage: string;
  onStdout?: (chunk: string) => void;
}

interface RunResult {
  code: number | null;
  stdout: string;
  /** The last lines ffmpeg wrote to stderr: why it failed, when it did. */
  stderrTail: string;
}

const STDERR_KEEP = 4000;
const STDOUT_KEEP = 4 * 1024 * 1024;

/**
 * Runs one program to its end. It is killed (SIGKILL: nothing it writes is wanted any more) when `signal` aborts
 * or `timeoutMs` passes; a program that cannot be started at all is a VideoToolMissing.
 */
function run(program: string, args: string[], options: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(new VideoRunAborted());
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let ended: Error | null = null;
    const stop = (reason: Error) => {
      if (ended) return;
      ended = reason;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop(new VideoUnusable('video-timeout', options.timeoutMessage)), options.timeoutMs);
    const onAbort = () => stop(new VideoRunAborted());
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const cleanUp = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (options.onStdout) options.onStdout(chunk);
      else if (stdout.length < STDOUT_KEEP) stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_KEEP);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      cleanUp();
      if (error.code === 'ENOENT' || error.code === 'EACCES') reject(new VideoToolMissing(program));
      else reject(error);
    });
    child.on('close', (code, signal) => {
      cleanUp();
      if (ended) reject(ended);
      // Ended by a signal not ours (Ctrl-C reaches the whole terminal's process group; ffmpeg then exits 255):
      // the file is not to blame, so the run goes back to the queue.
      else if (signal || code === 255) reject(new VideoRunAborted());
      else resolve({ code, stdout, stderrTail: stderr.trim() });
    });
  });
}

/**
 * The last meaningful line of ffmpeg's complaint, for a failure message: the source called by its name, and no
 * path of this server's temporary folders.
 */
function lastLine(stderr: string, input: string, name: string): string {
  const lines = stderr
    .split('\n')
    .map((line) =>
      line
        .split(input)
        .join(name)
        .split(path.dirname(input) + path.sep)
        .join('')
        .trim(),
    )
    .filter(Boolean);
  return (lines.at(-1) ?? 'no message').slice(0, 300);
}

/** Whether both programs start here; what is missing, for the startup warning. */
export async function missingTools(tools: Pick<VideoTools, 'ffmpeg' | 'ffprobe'>): Promise<string[]> {
  const missing: string[] = [];
  for (const program of [tools.ffmpeg, tools.ffprobe]) {
    try {
      await run(program, ['-version'], { timeoutMs: 10_000, timeoutMessage: `${program} -version did not answer` });
    } catch (error) {
      if (error instanceof VideoToolMissing) missing.push(program);
    }
  }
  return missing;
}

/** Logs one clear warning when the programs are missing: everything else runs; videos fail saying what to install. */
export async function warnWhenVideoToolsMissing(config: Pick<Config, 'FFMPEG_PATH' | 'FFPROBE_PATH'>, logger: Logger) {
  const missing = await missingTools({ ffmpeg: config.FFMPEG_PATH, ffprobe: config.FFPROBE_PATH });
  if (!missing.length) return;
  logger.warn(
    { missing },
    `ffmpeg is not installed (${missing.join(' and ')} not found): video lessons cannot be processed until it is. ` +
      'Install it (Debian/Ubuntu: apt-get install ffmpeg; macOS: brew install ffmpeg) or set FFMPEG_PATH and ' +
      'FFPROBE_PATH, then press Retry on the videos that failed. Everything else works.',
  );
}

/** What ffprobe tells about a source: its length, its displayed size, whether it has sound. */
export interface ProbedVideo {
  /** Null when the container does not say (processing then measures the output). */
  durationMs: number | null;
  /** As displayed: rotation and non-square pixels applied. */
  width: number;
  height: number;
  hasAudio: boolean;
  /** Frames per second, when known. */
  frameRate: number | null;
}

interface ProbeStream {
  codec_type?: string;
  width?: number;
  height?: number;
  duration?: string;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  sample_aspect_ratio?: string;
  tags?: { rotate?: string };
  side_data_list?: { rotation?: number }[];
  disposition?: { attached_pic?: number };
}

const ratio = (text: string | undefined): number | null => {
  const match = /^(\d+)[/:](\d+)$/.exec(text ?? '');
  if (!match || Number(match[2]) === 0 || Number(match[1]) === 0) return null;
  return Number(match[1]) / Number(match[2]);
};

const PROBE_TIMEOUT_MS = 60_000;

/**
 * The containers an uploaded video may come in; ffprobe and ffmpeg open nothing else. Left out on purpose: playlists
 * and manifests (HLS, DASH, concat lists, IMF, SDP) name other files or URLs to read, so one uploaded as a video
 * would copy whatever it names (another lesson's segments on this server, say) into this lesson; and text, pictures
 * and image sequences, which are not videos.
 */
export const VIDEO_CONTAINERS = [
  'mov',
  'mp4',
  'm4a',
  '3gp',
  '3g2',
  'mj2',
  'matroska',
  'webm',
  'avi',
  'mpegts',
  'mpeg',
  'flv',
  'asf',
  'ogg',
];

/**
 * Options before the source's `-i`: only the allowed containers, read from the one local file (no network, no
 * data:, subfile:, concat: or pipe URLs); ffmpeg then refuses anything else with "Format not on whitelist".
 */
export const SOURCE_INPUT_OPTIONS = ['-protocol_whitelist', 'file', '-format_whitelist', VIDEO_CONTAINERS.join(',')];

/**
 * What each refused demuxer means to the uploader; ffmpeg names the one it found (`[hls @ 0x…] Format not on
 * whitelist`).
 */
const REFUSED_FORMATS: { formats: RegExp; code: string; says: (name: string) => string }[] = [
  {
    formats: /^(hls|dash|webm_dash_manifest|concat|imf|sdp|rtp|rtsp)$/,
    code: 'video-playlist-refused',
    says: (name) =>
      `the uploaded file is a playlist or manifest (${name}), not a video: the files it names are not read; upload the lesson's video file itself`,
  },
  {
    formats: /^(tty|bin|xbin|adf|idf)$/,
    code: 'video-is-text',
    says: (name) => `the uploaded file is text, not a video (${name}): upload the lesson's video file`,
  },
  {
    formats: /^(image2|gif|apng|[a-z0-9]+_pipe)$/,
    code: 'video-is-picture',
    says: (name) => `the uploaded file is a picture, not a video (${name}): upload the lesson's video file`,
  },
  {
    formats: /^(mp3|wav|w64|flac|aac|aiff|amr|ape|wv)$/,
    code: 'video-no-picture',
    says: () => 'the uploaded file has no video stream (is it an audio file?)',
  },
];

/** The demuxer ffmpeg refused (it found one, but not an allowed container), when that is why it stopped. */
export function refusedFormat(stderr: string): string | null {
  return /\[([\w,]+) @ 0x[0-9a-f]+\] Format not on whitelist/.exec(stderr)?.[1] ?? null;
}

function refusal(format: string, name: string): VideoUnusable {
  const known = REFUSED_FORMATS.find((r) => r.formats.test(format));
  if (known) return new VideoUnusable(known.code, known.says(name));
  return new VideoUnusable(
    'video-format-refused',
    `the uploaded file is in a format (${format}) not taken for videos (${name}): upload MP4, MOV, MKV, WebM, AVI, MPEG-TS, FLV, WMV or Ogg`,
  );
}

/**
 * Reads the source's facts with ffprobe; a file that is not a video (or has no picture) is a VideoUnusable, which
 * calls the file `name` (its name as uploaded).
 */
export async function probeVideo(
  tools: VideoTools,
  file: string,
  name: string,
  signal?: AbortSignal,
): Promise<ProbedVideo> {
  const result = await run(
    tools.ffprobe,
    ['-v', 'error', ...SOURCE_INPUT_OPTIONS, '-print_format', 'json', '-show_format', '-show_streams', file],
    {
      signal,
      timeoutMs: PROBE_TIMEOUT_MS,
      timeoutMessage: 'reading the file took more than a minute: it may be damaged',
    },
  );
  if (result.code !== 0) {
    const refused = refusedFormat(result.stderrTail);
    if (refused) throw refusal(refused, name);
    throw new VideoUnusable(
      'video-unreadable',
      `the uploaded file is not a video ffmpeg can read (${lastLine(result.stderrTail, file, name)})`,
    );
  }
  let parsed: { streams?: ProbeStream[]; format?: { duration?: string; format_name?: string } };
  try {
    parsed = JSON.parse(result.stdout) as typeof parsed;
  } catch {
    throw new VideoUnusable('video-unreadable', 'the uploaded file is not a video ffmpeg can read');
  }
  const streams = parsed.streams ?? [];
  // A cover picture in an audio file is a "video" stream too; it is not a video.
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic && s.width && s.height);
  if (!video)
    throw new VideoUnusable('video-no-picture', 'the uploaded file has no video stream (is it an audio file?)');

  const rotation = Number(
    video.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? video.tags?.rotate ?? 0,
  );
  const sideways = Math.abs(rotation) % 180 === 90;
  const pixelAspect = ratio(video.sample_aspect_ratio) ?? 1;
  const storedWidth = Math.round(video.width! * pixelAspect);
  const seconds = Number(parsed.format?.duration ?? video.duration);
  return {
    durationMs: Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : null,
    width: sideways ? video.height! : storedWidth,
    height: sideways ? storedWidth : video.height!,
    hasAudio: streams.some((s) => s.codec_type === 'audio'),
    frameRate: ratio(video.avg_frame_rate) ?? ratio(video.r_frame_rate),
  };
}

/** HLS segments of six seconds: a keyframe is forced at each boundary so every rendition cuts at the same times. */
export const SEGMENT_SECONDS = 6;
/** Above this, frames are dropped to it: the ladder's H.264 levels allow 60 per second. */
const MAX_FRAME_RATE = 60;
const POSTER_MAX_HEIGHT = 720;

export interface TranscodeJob {
  input: string;
  /** The source's name as uploaded, for messages. */
  name: string;
  /** Gets `<height>p/index.m3u8`, `<height>p/seg-00001.ts` …, and `poster.jpg`. */
  outputDir: string;
  source: ProbedVideo;
  renditions: Rendition[];
  /** Called with 0–99 as ffmpeg reports where it is. */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
  timeoutMs: number;
}

/** The frame rate the renditions get. */
export const outputFrameRate = (source: ProbedVideo) =>
  source.frameRate ? Math.min(source.frameRate, MAX_FRAME_RATE) : null;

/**
 * ffmpeg's arguments for the whole ladder and the poster in one run: the picture is decoded once and split, each
 * branch scaled and encoded (libx264 at `x264Preset`, veryfast by default, at constant quality under its bitrate cap,
 * keyframes every six seconds, AAC when there is sound), written as VOD HLS by one muxer (var_stream_map), and one
 * frame a little into the video (10 %, at most 10 s) as the poster JPEG. Progress goes to stdout (-progress pipe:1).
 */
export function transcodeArguments(
  job: Omit<TranscodeJob, 'signal' | 'timeoutMs' | 'onProgress' | 'name'>,
  x264Preset: VideoTools['x264Preset'],
): string[] {
  const { source, renditions, outputDir } = job;
  const fps = source.frameRate && source.frameRate > MAX_FRAME_RATE ? `fps=${MAX_FRAME_RATE},` : '';
  const top = renditions.at(-1)!;
  const posterHeight = Math.min(top.height, POSTER_MAX_HEIGHT);
  const posterWidth = Math.max(2, 2 * Math.round((top.width * posterHeight) / top.height / 2));
  const posterAt = source.durationMs ? Math.min(source.durationMs * 0.1, 10_000) / 1000 : 0;

  const branches = renditions.map((_, i) => `[s${i}]`).join('');
  const filters = [
    `[0:v:0]${fps}split=${renditions.length + 1}${branches}[sp]`,
    ...renditions.map((r, i) => `[s${i}]scale=${r.width}:${r.height},setsar=1,format=yuv420p[v${i}]`),
    `[sp]trim=start=${posterAt.toFixed(3)},setpts=PTS-STARTPTS,scale=${posterWidth}:${posterHeight},setsar=1[poster]`,
  ];
  const maps = renditions.flatMap((_, i) => ['-map', `[v${i}]`, ...(source.hasAudio ? ['-map', '0:a:0'] : [])]);
  const perRendition = renditions.flatMap((r, i) => [
    `-profile:v:${i}`,
    r.profile,
    `-level:v:${i}`,
    r.level,
    `-maxrate:v:${i}`,
    `${r.maxrateKbps}k`,
    `-bufsize:v:${i}`,
    `${r.maxrateKbps * 2}k`,
  ]);
  const streamMap = renditions
    .map((r, i) => [`v:${i}`, ...(source.hasAudio ? [`a:${i}`] : []), `name:${renditionName(r.height)}`].join(','))
    .join(' ');
  return [
    ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-nostats', '-progress', 'pipe:1'],
    ...SOURCE_INPUT_OPTIONS,
    ...['-i', job.input],
    ...['-filter_complex', filters.join(';')],
    ...maps,
    ...['-c:v', 'libx264', '-preset', x264Preset, '-crf', '23', '-sc_threshold', '0'],
    ...['-force_key_frames', `expr:gte(t,n_forced*${SEGMENT_SECONDS})`],
    ...perRendition,
    ...(source.hasAudio ? ['-c:a', 'aac', '-b:a', `${AUDIO_KBPS}k`, '-ac', '2'] : []),
    ...['-map_metadata', '-1', '-max_muxing_queue_size', '4096'],
    ...['-f', 'hls', '-hls_time', String(SEGMENT_SECONDS), '-hls_playlist_type', 'vod'],
    ...['-hls_flags', 'independent_segments', '-hls_segment_type', 'mpegts', '-start_number', '1'],
    ...['-hls_segment_filename', path.join(outputDir, '%v', 'seg-%05d.ts')],
    ...['-var_stream_map', streamMap, path.join(outputDir, '%v', 'index.m3u8')],
    ...['-map', '[poster]', '-frames:v', '1', '-q:v', '3', '-update', '1', '-max_muxing_queue_size', '4096'],
    path.join(outputDir, 'poster.jpg'),
  ];
}

/**
 * Makes the HLS renditions and the poster in one ffmpeg run, reporting progress (out_time against the duration).
 * A run ffmpeg ends with an error is a VideoUnusable with its last complaint.
 */
export async function transcode(tools: VideoTools, job: TranscodeJob): Promise<void> {
  for (const rendition of job.renditions) {
    await mkdir(path.join(job.outputDir, renditionName(rendition.height)), { recursive: true });
  }
  let pending = '';
  const durationUs = job.source.durationMs ? job.source.durationMs * 1000 : null;
  const result = await run(tools.ffmpeg, transcodeArguments(job, tools.x264Preset), {
    signal: job.signal,
    timeoutMs: job.timeoutMs,
    timeoutMessage: `processing took longer than ${Math.round(job.timeoutMs / 60_000)} minutes and was stopped: the file may be damaged; try another export of it`,
    onStdout: (chunk) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const match = /^out_time_us=(\d+)/.exec(line);
        if (match && durationUs && job.onProgress) {
          job.onProgress(Math.max(0, Math.min(99, Math.floor((Number(match[1]) / durationUs) * 100))));
        }
      }
    },
  });
  if (result.code !== 0) {
    throw new VideoUnusable(
      'video-convert-failed',
      `ffmpeg could not convert the video (${lastLine(result.stderrTail, job.input, job.name)})`,
    );
  }
}
