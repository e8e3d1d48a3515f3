import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { loadConfig } from '../../api/src/config';
import type { Db } from '../../api/src/db/connection';
import { createLogger } from '../../api/src/logger';
import { createServices } from '../../api/src/services';
import { PROCESS_VIDEO_JOB } from '../../api/src/video/process-video';
import { createCourse } from '../../seeds/factories';

const run = promisify(execFile);

export interface VideoBench {
  seconds: number;
  sourceMb: number;
  renditions: number[];
  status: string;
}

/**
 * A one-minute 1080p30 video with sound (ffmpeg's moving test pattern and a tone, H.264/AAC as a camera or a screen
 * recorder would hand it over), attached to a lesson as an upload does, then timed from its job starting to the video
 * being ready: download from the storage, probe, the one ffmpeg run (360p, 720p, 1080p and the poster), the upload
 * of the outputs, the row. The source is made before the clock starts.
 */
export async function benchVideoProcessing(db: Db): Promise<VideoBench> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'lp-bench-video-'));
  try {
    const source = path.join(dir, 'lecture.mp4');
    await run('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', 'testsrc2=size=1920x1080:rate=30', '-f', 'lavfi', '-i', 'sine=frequency=440'],
      ...['-t', '60', '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-pix_fmt', 'yuv420p'],
      ...['-c:a', 'aac', '-b:a', '128k', source],
    ]);
    const size = (await stat(source)).size;
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn', MEDIA_DIR: path.join(dir, 'media') });
    const services = createServices({ db, config, logger: createLogger('warn'), clock: { now: () => new Date() } });
    const { lessons } = await createCourse(db, {
      title: 'Bench video course',
      modules: [{ title: 'M', sections: [{ title: 'S', lessons: [{ title: 'One minute', body: '<p>x</p>' }] }] }],
    });
    const video = await services.videoAdmin.attachSource(
      {
        lessonId: lessons[0]!.id,
        filename: 'lecture.mp4',
        contentType: 'video/mp4',
        size,
        open: async () => createReadStream(source),
      },
      { actor: { id: null, email: 'bench' }, requestId: null },
      { wake: false },
    );
    const started = performance.now();
    await services.jobs.runDue(PROCESS_VIDEO_JOB);
    const seconds = (performance.now() - started) / 1000;
    const done = await services.videoAdmin.getOne(video.id);
    return {
      seconds: Math.round(seconds * 10) / 10,
      sourceMb: Math.round((size / 1024 / 1024) * 10) / 10,
      renditions: done.renditionHeights,
      status: done.status === 'failed' ? `failed: ${done.error}` : done.status,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
