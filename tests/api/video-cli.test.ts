import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../support/models';
import { localStorage } from '../../api/src/media/storage';
import { LessonVideo } from '../../api/src/video/models';
import { PROCESS_VIDEO_JOB } from '../../api/src/video/process-video';
import { createCourse } from '../../seeds/factories';
import { cliHere, npmRunCli } from '../support/cli';
import { useTestDatabase } from '../support/db';
import { jobsOf } from '../support/jobs';

const run = promisify(execFile);

describe('npm run cli -- attach-video', { timeout: 180_000 }, () => {
  const database = useTestDatabase();
  let workDir: string;
  let mediaDir: string;

  function env(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      LOG_LEVEL: 'warn',
      DATABASE_URL: database().url,
      MEDIA_DIR: mediaDir,
      // As every test's server: the fastest encoding (tests/support/app.ts).
      VIDEO_X264_PRESET: 'ultrafast',
    };
    delete env.TEST_DATABASE_URL;
    delete env.VITEST;
    return env;
  }
  // Through npm once (tests/e2e/cli.test.ts proves the command line's wiring and exit codes); the other cases through
  // the runCli the entry calls, with the same arguments and environment, sparing a process that compiles the
  // TypeScript as it starts.
  const cli = (args: string[]) => cliHere(args, env());

  async function lesson(title: string) {
    const { lessons } = await createCourse(database().db, {
      title: `${title} course`,
      modules: [{ title: 'M', sections: [{ title: 'S', lessons: [{ title, body: '<p>x</p>' }] }] }],
    });
    return lessons[0]!;
  }

  beforeAll(async () => {
    workDir = await mkdtemp(path.join(os.tmpdir(), 'lp-video-cli-'));
    mediaDir = path.join(workDir, 'media');
  });
  afterAll(async () => {
    await rm(workDir, { recursive: true, force: true });
  });

  it('stores a video file as the lesson video and processes it there, printing progress and the result', async () => {
    const db = database().db;
    const target = await lesson('Imported');
    const file = path.join(workDir, 'Lecture 1.mp4');
    await run('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=1280x720:rate=25'],
      ...['-f', 'lavfi', '-i', 'sine', '-t', '4', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
      file,
    ]);

    const done = await npmRunCli(['attach-video', target.id, file], env());
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    const video = await LessonVideo.query(db).findOne({ lessonId: target.id });
    const lines = done.stdout.trim().split('\n');
    expect(lines[0]).toMatch(
      new RegExp(`^Stored Lecture 1\\.mp4 \\([\\d.]+ MB\\) as the video of "Imported" \\(video ${video!.id}\\)\\.$`),
    );
    expect(lines.slice(1, -1).every((line) => /^processing \d{1,2} %$/.test(line))).toBe(true);
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.at(-1)).toBe('ready: 4.0 s, 1280x720, renditions 360p, 720p');
    expect(video).toMatchObject({ status: 'ready', renditionHeights: [360, 720], sourceName: 'Lecture 1.mp4' });
    const storage = localStorage(mediaDir);
    expect(await storage.exists(`videos/${video!.id}/source/v1.mp4`)).toBe(true);
    expect(await storage.exists(`videos/${video!.id}/v1/master.m3u8`)).toBe(true);
    expect(await AuditLog.query(db).where({ resource: 'videos', recordId: video!.id })).toEqual([
      expect.objectContaining({ action: 'upload', actorId: null, actorEmail: 'cli' }),
    ]);

    // --no-wait leaves it queued for a server; a file that is not a video fails with the reason, exit 1.
    const notes = path.join(workDir, 'notes.mp4');
    await writeFile(notes, 'not a video\n');
    const queued = await cli(['attach-video', target.id, notes, '--no-wait']);
    expect(queued.code).toBe(0);
    expect(queued.stdout).toContain('Queued: a running server processes it');
    expect(await LessonVideo.query(db).findById(video!.id)).toMatchObject({ status: 'queued', version: 2 });
    expect((await jobsOf(db, PROCESS_VIDEO_JOB)).at(-1)).toMatchObject({ state: 'created', data: { version: 2 } });

    const failed = await cli(['attach-video', target.id, notes]);
    expect(failed.code).toBe(1);
    expect(failed.stderr.trim()).toBe(
      'failed: the uploaded file is not a video ffmpeg can read (notes.mp4: Invalid data found when processing input)',
    );
  });

  it('says what is wrong with the arguments before touching anything', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('attach-video <lessonId> <file> [--no-wait]');

    const noLessonId = await cli(['attach-video', 'intro', 'x.mp4']);
    expect(noLessonId.code).toBe(2);
    expect(noLessonId.stderr).toContain('"intro" is not a lesson id.');
    const noFile = await cli(['attach-video', '00000000-0000-4000-8000-000000000000', path.join(workDir, 'nope.mp4')]);
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toContain(`No file at ${path.join(workDir, 'nope.mp4')}.`);
    const file = path.join(workDir, 'any.mp4');
    await writeFile(file, 'x');
    const noLesson = await cli(['attach-video', '00000000-0000-4000-8000-000000000000', file]);
    expect(noLesson.code).toBe(1);
    expect(noLesson.stderr.trim()).toBe('No lesson with id 00000000-0000-4000-8000-000000000000.');
  });
});
