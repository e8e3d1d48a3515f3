import { createWriteStream } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { MediaStorage } from '../media/storage';
import { outputFrameRate, probeVideo, transcode, VideoUnusable, type ProbedVideo, type VideoTools } from './ffmpeg';
import type { LessonVideo } from './models';
import {
  masterPlaylist,
  measureBandwidth,
  planRenditions,
  playlistSegments,
  renditionName,
  type MasterEntry,
} from './renditions';

const LONGEST_TRANSCODE_MS = 5 * 60 * 60 * 1000;

/** ffmpeg gets ten minutes plus six times the video's length, at most five hours; unknown length: five hours. */
const transcodeTimeoutMs = (durationMs: number | null) =>
  durationMs ? Math.min(LONGEST_TRANSCODE_MS, 10 * 60_000 + 6 * durationMs) : LONGEST_TRANSCODE_MS;

/** What a run made in its work folder: the renditions' heights, and the length its segments add up to. */
interface MadeRenditions {
  probed: ProbedVideo;
  outputDir: string;
  heights: number[];
  measuredMs: number;
}

/**
 * The source, copied from the storage into `workDir`, becomes HLS renditions, a poster and a master playlist
 * (with each rendition's measured bandwidth) in `workDir/out`. A file that is no video throws VideoUnusable.
 */
export async function makeRenditions(
  { storage, tools }: { storage: MediaStorage; tools: VideoTools },
  video: Pick<LessonVideo, 'sourceKey' | 'sourceName'>,
  workDir: string,
  {
    signal,
    progress,
  }: { signal: AbortSignal; progress: { report: (percent: number) => void; settled: () => Promise<void> } },
): Promise<MadeRenditions> {
  const source = await storage.get(video.sourceKey);
  if (!source)
    throw new VideoUnusable(
      'video-source-missing',
      'the uploaded file is missing from the storage: upload the video again',
    );
  const input = path.join(workDir, `source${path.extname(video.sourceKey)}`);
  await pipeline(source.body, createWriteStream(input));

  const probed = await probeVideo(tools, input, video.sourceName, signal);
  const renditions = planRenditions(probed);
  const outputDir = path.join(workDir, 'out');
  await transcode(tools, {
    input,
    name: video.sourceName,
    outputDir,
    source: probed,
    renditions,
    onProgress: progress.report,
    signal,
    timeoutMs: transcodeTimeoutMs(probed.durationMs),
  });
  await progress.settled();

  const entries: MasterEntry[] = [];
  let measuredMs = 0;
  for (const rendition of renditions) {
    const folder = path.join(outputDir, renditionName(rendition.height));
    const segments = playlistSegments(await readFile(path.join(folder, 'index.m3u8'), 'utf8'));
    if (!segments.length)
      throw new VideoUnusable('video-no-segments', 'ffmpeg made no video segments: the file may be damaged');
    const sized = await Promise.all(
      segments.map(async (s) => ({ seconds: s.seconds, bytes: (await stat(path.join(folder, s.uri))).size })),
    );
    entries.push({ rendition, ...measureBandwidth(sized) });
    measuredMs = Math.round(segments.reduce((sum, s) => sum + s.seconds, 0) * 1000);
  }
  const frameRate = outputFrameRate(probed);
  await writeFile(
    path.join(outputDir, 'master.m3u8'),
    masterPlaylist(entries, { hasAudio: probed.hasAudio, frameRate }),
  );
  return { probed, outputDir, heights: renditions.map((r) => r.height), measuredMs };
}
