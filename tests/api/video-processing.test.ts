import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { access, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import sharp from 'sharp';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { AuditLog } from '../support/models';
import type { Config } from '../../api/src/config';
import type { Logger } from '../../api/src/logger';
import { readAll, type MediaStorage } from '../../api/src/media/storage';
import { createServices, type Services } from '../../api/src/services';
import { FFMPEG_MISSING, missingTools, videoTools, warnWhenVideoToolsMissing } from '../../api/src/video/ffmpeg';
import { LessonVideo } from '../../api/src/video/models';
import { PROCESS_VIDEO_JOB } from '../../api/src/video/process-video';
import { createCourse } from '../../seeds/factories';
import { testConfig, testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { jobsOf } from '../support/jobs';
import { startLoopbackS3, type LoopbackS3 } from '../support/s3-server';

const run = promisify(execFile);
const UPLOADS = '/api/admin/uploads/videos';

let workDir: string;

/** One second of ffmpeg's test pattern in H.264 at 25 frames a second, made once per size and folder. */
const patterns = new Map<string, Promise<string>>();
function patternSecond(size: string): Promise<string> {
  const file = path.join(workDir, `pattern-${size}.mp4`);
  let made = patterns.get(file);
  if (!made) {
    made = run('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=size=${size}:rate=25`],
      ...['-t', '1', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', file],
    ]).then(() => file);
    patterns.set(file, made);
  }
  return made;
}

/**
 * A test video made here with ffmpeg: the test pattern's second repeated for `seconds` (copied, not encoded again:
 * a long source costs no more to make than a short one), and a tone when `audio`.
 */
async function makeVideo(name: string, { size = '1280x720', seconds = 4, audio = true } = {}): Promise<Buffer> {
  const file = path.join(workDir, name);
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-stream_loop', '-1', '-i', await patternSecond(size)],
    ...(audio ? ['-f', 'lavfi', '-i', 'sine=frequency=440', '-map', '0:v', '-map', '1:a', '-c:a', 'aac'] : []),
    ...['-t', String(seconds), '-c:v', 'copy', file],
  ]);
  return readFile(file);
}

interface Replica {
  services: Services;
  config: Config;
  url: string;
  close(): Promise<void>;
}

type Who = SignedIn | undefined;

const authHeaders = (who: Who, csrf = true): Record<string, string> =>
  who ? { Cookie: who.cookie, ...(csrf ? { 'X-CSRF-Token': who.csrfToken } : {}) } : {};

const tusHeaders = (who: Who, extra: Record<string, string> = {}) => ({
  'Tus-Resumable': '1.0.0',
  ...authHeaders(who),
  ...extra,
});

const metadataHeader = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');

/** tus creation: POST with the size and metadata. */
function createUpload(replica: Replica, who: Who, fields: Record<string, string>, size: number) {
  return fetch(`${replica.url}${UPLOADS}`, {
    method: 'POST',
    headers: tusHeaders(who, { 'Upload-Length': String(size), 'Upload-Metadata': metadataHeader(fields) }),
  });
}

function patchUpload(replica: Replica, who: Who, location: string, offset: number, bytes: Buffer) {
  return fetch(`${replica.url}${location}`, {
    method: 'PATCH',
    headers: tusHeaders(who, { 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' }),
    body: new Uint8Array(bytes),
  });
}

function headUpload(replica: Replica, who: Who, location: string) {
  return fetch(`${replica.url}${location}`, { method: 'HEAD', headers: tusHeaders(who) });
}

/** A whole upload in two requests, as tus-js-client sends a file; resolves with the new video's id. */
async function uploadVideo(replica: Replica, who: Who, lessonId: string, bytes: Buffer, filename: string) {
  const created = await createUpload(replica, who, { lessonId, filename, filetype: 'video/mp4' }, bytes.length);
  expect(created.status).toBe(201);
  const location = created.headers.get('location')!;
  expect(location).toMatch(/^\/api\/admin\/uploads\/videos\/[0-9a-f]{32}$/);
  const sent = await patchUpload(replica, who, location, 0, bytes);
  expect(sent.status).toBe(204);
  expect(sent.headers.get('upload-offset')).toBe(String(bytes.length));
  return { videoId: sent.headers.get('video-id')!, location };
}

describe('lesson videos: upload and processing', { timeout: 120_000 }, () => {
  const database = useTestDatabase();
  let mediaDir: string;
  let staff: SignedIn;
  const replicas: Replica[] = [];

  async function replica(env: Record<string, string> = {}): Promise<Replica> {
    const config = testConfig({ MEDIA_DIR: mediaDir, ...env });
    const deps = testDeps(database().db, { config });
    const services = createServices(deps);
    const server = http.createServer(createApp(deps, { services }).callback());
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const started: Replica = {
      services,
      config,
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: async () => {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      },
    };
    replicas.push(started);
    return started;
  }

  /** A lesson written by `staff`, a contributor: they change only their own lessons' videos. */
  async function lesson(title = 'Video lesson') {
    const { lessons } = await createCourse(
      database().db,
      {
        title: `${title} course`,
        modules: [{ title: 'M', sections: [{ title: 'S', lessons: [{ title, body: '<p>Watch</p>' }] }] }],
      },
      { createdById: staff.user.id },
    );
    return lessons[0]!;
  }

  const record = (on: Replica, id: string, who: Who = staff) => as(who, request(on.url).get(`/api/admin/videos/${id}`));
  const storageOf = (on: Replica): MediaStorage => on.services.storage;

  beforeAll(async () => {
    workDir = await mkdtemp(path.join(os.tmpdir(), 'lp-video-test-'));
    mediaDir = path.join(workDir, 'media');
    staff = await signedIn(database().db, ['contributor']);
  });
  afterAll(async () => {
    for (const started of replicas) await started.close();
    await rm(workDir, { recursive: true, force: true });
  });

  it('uploads a 720p video with sound over tus, and processing makes 360p and 720p HLS, a poster and the length', async () => {
    const db = database().db;
    const api = await replica();
    const target = await lesson('Welcome');
    const bytes = await makeVideo('welcome.mp4');
    const { videoId, location } = await uploadVideo(api, staff, target.id, bytes, 'Welcome.MP4');

    // Progress as the console sees it, while the job this upload woke runs.
    const processing = api.services.jobs.runDue(PROCESS_VIDEO_JOB);
    let finished = false;
    void processing.finally(() => (finished = true));
    const seen = new Set<number>();
    while (!finished) {
      const row = await LessonVideo.query(db).findById(videoId);
      if (row?.status === 'processing') seen.add(row.progress);
      await delay(20);
    }
    await processing;
    expect([...seen].some((p) => p > 0 && p < 100)).toBe(true);

    const answer = await as(staff, request(api.url).get(`/api/admin/lessons/${target.id}/video`));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      id: videoId,
      lessonId: target.id,
      lessonTitle: 'Welcome',
      status: 'ready',
      progress: 100,
      error: null,
      sourceName: 'Welcome.MP4',
      sourceSize: bytes.length,
      width: 1280,
      height: 720,
      renditionHeights: [360, 720],
      captions: [],
      posterUrl: `/api/admin/videos/${videoId}/poster.jpg?v=1`,
    });
    expect(Math.abs(answer.body.durationMs - 4000)).toBeLessThanOrEqual(100);
    expect(answer.body.processedAt).toEqual(expect.any(String));
    expect((await record(api, videoId)).body).toEqual(answer.body);

    const storage = storageOf(api);
    const text = async (key: string) => (await readAll((await storage.get(key))!.body)).toString();
    expect(await storage.exists(`videos/${videoId}/source/v1.mp4`)).toBe(true);
    const master = await text(`videos/${videoId}/v1/master.m3u8`);
    expect(master).toMatch(
      /#EXT-X-STREAM-INF:BANDWIDTH=\d+,AVERAGE-BANDWIDTH=\d+,RESOLUTION=640x360,CODECS="avc1\.[0-9a-f]{6},mp4a\.40\.2",FRAME-RATE=25\.000\n360p\/index\.m3u8/,
    );
    expect(master).toMatch(/RESOLUTION=1280x720,CODECS="avc1\.[0-9a-f]{6},mp4a\.40\.2".*\n720p\/index\.m3u8/);
    for (const height of [360, 720]) {
      const playlist = await text(`videos/${videoId}/v1/${height}p/index.m3u8`);
      expect(playlist).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
      expect(playlist).toContain('#EXT-X-ENDLIST');
      expect(playlist).toMatch(/^seg-00001\.ts$/m);
      expect(playlist).not.toMatch(/\//); // relative paths only
      const segment = (await storage.get(`videos/${videoId}/v1/${height}p/seg-00001.ts`))!;
      expect(segment.contentType).toBe('video/mp2t');
      expect((await readAll(segment.body))[0]).toBe(0x47); // an MPEG-TS sync byte
    }
    // Encoded at the tests' VIDEO_X264_PRESET, ultrafast: no CABAC, no B-frames, H.264's Constrained Baseline.
    const encoded = await run('ffprobe', [
      ...['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=profile,has_b_frames', '-of', 'flat'],
      path.join(mediaDir, 'videos', videoId, 'v1', '720p', 'seg-00001.ts'),
    ]);
    expect(encoded.stdout).toContain('.profile="Constrained Baseline"');
    expect(encoded.stdout).toContain('.has_b_frames=0');
    const poster = await readAll((await storage.get(`videos/${videoId}/v1/poster.jpg`))!.body);
    expect(await sharp(poster).metadata()).toMatchObject({ format: 'jpeg', width: 1280, height: 720 });
    const preview = await as(staff, request(api.url).get(answer.body.posterUrl)).buffer(true);
    expect(preview.status).toBe(200);
    expect(preview.headers['content-type']).toBe('image/jpeg');
    expect(Buffer.compare(preview.body as Buffer, poster)).toBe(0);

    // The upload's staging copy is gone; the job, the audit entry and the list say what happened.
    await expect(access(path.join(mediaDir, 'uploads', location.split('/').pop()!))).rejects.toThrow();
    expect((await jobsOf(db, PROCESS_VIDEO_JOB)).find((j) => j.data.videoId === videoId)).toMatchObject({
      state: 'completed',
      data: { videoId, version: 1 },
    });
    expect(await AuditLog.query(db).where({ resource: 'videos', recordId: videoId })).toEqual([
      expect.objectContaining({ action: 'upload', actorId: staff.user.id, actorEmail: staff.user.email }),
    ]);
    const list = await as(
      staff,
      request(api.url)
        .get('/api/admin/videos')
        .query({ filter: JSON.stringify({ lessonId: target.id }) }),
    );
    expect(list.status).toBe(200);
    expect(list.headers['content-range']).toBe('videos 0-0/1');
    expect(list.body).toEqual([answer.body]);
    const ready = await as(
      staff,
      request(api.url)
        .get('/api/admin/videos')
        .query({ filter: JSON.stringify({ status: 'ready', q: 'welcome' }), sort: '["durationMs","DESC"]' }),
    );
    expect(ready.body.map((v: { id: string }) => v.id)).toContain(videoId);
  });

  it('resumes an upload cut off half way, on another replica, from the offset the server kept', async () => {
    const first = await replica();
    const second = await replica(); // another server process on the same database and MEDIA_DIR
    const target = await lesson('Small');
    const bytes = await makeVideo('small.mp4', { size: '320x240', seconds: 2, audio: false });
    const created = await createUpload(first, staff, { lessonId: target.id, filename: 'small.mp4' }, bytes.length);
    const location = created.headers.get('location')!;

    // Half the bytes, then the connection drops before the rest.
    const half = Math.floor(bytes.length / 2);
    const cut = http.request(`${first.url}${location}`, {
      method: 'PATCH',
      headers: tusHeaders(staff, {
        'Upload-Offset': '0',
        'Content-Type': 'application/offset+octet-stream',
        'Content-Length': String(bytes.length),
      }),
    });
    cut.on('error', () => undefined);
    cut.write(bytes.subarray(0, half));
    for (;;) {
      const offset = Number((await headUpload(second, staff, location)).headers.get('upload-offset'));
      if (offset > 0) break;
      await delay(20);
    }
    cut.destroy();
    // The first replica's HEAD waits for its cut-off PATCH to end: then the offset is final.
    const kept = await headUpload(first, staff, location);
    expect(kept.status).toBe(200);
    expect(kept.headers.get('upload-length')).toBe(String(bytes.length));
    const offset = Number(kept.headers.get('upload-offset'));
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThanOrEqual(half);

    const resumedAt = await headUpload(second, staff, location);
    expect(resumedAt.headers.get('upload-offset')).toBe(String(offset));
    expect(await patchUpload(second, staff, location, 0, bytes).then((r) => r.status)).toBe(409); // a wrong offset
    const rest = await patchUpload(second, staff, location, offset, bytes.subarray(offset));
    expect(rest.status).toBe(204);
    const videoId = rest.headers.get('video-id')!;
    await second.services.jobs.runDue(PROCESS_VIDEO_JOB);

    const stored = await storageOf(second).get(`videos/${videoId}/source/v1.mp4`);
    expect(Buffer.compare(await readAll(stored!.body), bytes)).toBe(0);
    // A source below 360p gets one rendition at its own height, never upscaled; it has no sound.
    const done = await record(second, videoId);
    expect(done.body).toMatchObject({ status: 'ready', width: 320, height: 240, renditionHeights: [240] });
    expect(Math.abs(done.body.durationMs - 2000)).toBeLessThanOrEqual(100);
    const master = (await readAll((await storageOf(second).get(`videos/${videoId}/v1/master.m3u8`))!.body)).toString();
    expect(master).toMatch(/RESOLUTION=320x240,CODECS="avc1\.[0-9a-f]{6}"/);
  });

  it('fails a file that is not a video with the reason, and Retry without a new file fails again as clearly', async () => {
    const db = database().db;
    const api = await replica();
    const target = await lesson('Notes');
    const notes = Buffer.from('These are my lecture notes, not a video.\n'.repeat(50));
    const { videoId } = await uploadVideo(api, staff, target.id, notes, 'notes.mp4');
    await api.services.jobs.runDue(PROCESS_VIDEO_JOB);

    const failed = await record(api, videoId);
    expect(failed.body).toMatchObject({ status: 'failed', progress: 0, renditionHeights: [], posterUrl: null });
    expect(failed.body.error).toBe(
      'the uploaded file is not a video ffmpeg can read (notes.mp4: Invalid data found when processing input)',
    );

    const retried = await as(staff, request(api.url).post(`/api/admin/videos/${videoId}/retry`));
    expect(retried.status).toBe(200);
    expect(['queued', 'processing']).toContain(retried.body.status);
    expect(retried.body.error).toBeNull();
    const again = await as(staff, request(api.url).post(`/api/admin/videos/${videoId}/retry`));
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('video-not-failed');
    await api.services.jobs.runDue(PROCESS_VIDEO_JOB);

    expect((await record(api, videoId)).body).toMatchObject({ status: 'failed', error: failed.body.error });
    expect(
      (await AuditLog.query(db).where({ resource: 'videos', recordId: videoId }).orderBy('id')).map((a) => a.action),
    ).toEqual(['upload', 'retry']);

    // Named .txt, ffmpeg would read the same notes as a rendered terminal; a picture as a one-frame video.
    const asText = await uploadVideo(api, staff, (await lesson('Notes as text')).id, notes, 'notes.txt');
    const picture = path.join(workDir, 'slide.png');
    await run('ffmpeg', [
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=640x360',
      '-frames:v',
      '1',
      picture,
    ]);
    const asPicture = await uploadVideo(api, staff, (await lesson('Slide')).id, await readFile(picture), 'slide.png');
    await api.services.jobs.runDue(PROCESS_VIDEO_JOB);
    expect((await record(api, asText.videoId)).body).toMatchObject({
      status: 'failed',
      error: "the uploaded file is text, not a video (notes.txt): upload the lesson's video file",
    });
    expect((await record(api, asPicture.videoId)).body).toMatchObject({
      status: 'failed',
      error: "the uploaded file is a picture, not a video (slide.png): upload the lesson's video file",
    });

    // Sound alone is not a video either.
    const talk = path.join(workDir, 'talk.m4a');
    await run('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine', '-t', '1', '-c:a', 'aac', talk]);
    const audio = await uploadVideo(api, staff, (await lesson('Talk')).id, await readFile(talk), 'talk.m4a');
    await api.services.jobs.runDue(PROCESS_VIDEO_JOB);
    expect((await record(api, audio.videoId)).body).toMatchObject({
      status: 'failed',
      error: 'the uploaded file has no video stream (is it an audio file?)',
    });
  });

  it("refuses HLS and DASH playlists and concat lists that name another lesson's video on this disk: none becomes ready", async () => {
    const db = database().db;
    const api = await replica();
    // Another author's lesson, processed: its segments lie in MEDIA_DIR.
    const paid = await lesson('Paid lesson');
    const { videoId: paidId } = await uploadVideo(
      api,
      staff,
      paid.id,
      await makeVideo('paid.mp4', { size: '640x360', seconds: 2 }),
      'paid.mp4',
    );
    await api.services.jobs.runDue(PROCESS_VIDEO_JOB);
    expect((await record(api, paidId)).body.status).toBe('ready');
    const rendition = path.join(mediaDir, 'videos', paidId, 'v1', '360p');
    const segment = path.join(rendition, 'seg-00001.ts');
    await access(segment);

    const playlists: [string, string][] = [
      ['hls.mp4', `#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\nfile://${path.join(rendition, 'index.m3u8')}\n`],
      [
        'dash.mp4',
        [
          '<?xml version="1.0" encoding="utf-8"?>',
          '<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT2S" minBufferTime="PT2S" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011">',
          `<Period><AdaptationSet mimeType="video/mp2t"><Representation id="1" bandwidth="800000" width="640" height="360">`,
          `<BaseURL>file://${segment}</BaseURL></Representation></AdaptationSet></Period></MPD>`,
        ].join('\n'),
      ],
      ['list.mp4', `ffconcat version 1.0\nfile '${segment}'\n`],
    ];
    // Read by ffmpeg as they were before: each would have been a playable copy (the HLS and DASH ones are).
    for (const [name, text] of playlists.slice(0, 2)) {
      await writeFile(path.join(workDir, name), text);
      const probed = await run('ffprobe', [
        '-v',
        'error',
        '-show_entries',
        'format=format_name,duration',
        path.join(workDir, name),
      ]);
      expect(probed.stdout).toMatch(/duration=2\./);
    }

    const uploads = [];
    for (const [name, text] of playlists) {
      uploads.push(await uploadVideo(api, staff, (await lesson(`Free ${name}`)).id, Buffer.from(text), name));
    }
    await api.services.jobs.runDue(PROCESS_VIDEO_JOB);
    for (const [i, { videoId }] of uploads.entries()) {
      const failed = await record(api, videoId);
      expect(failed.body).toMatchObject({
        status: 'failed',
        errorCode: 'video-playlist-refused',
        error: `the uploaded file is a playlist or manifest (${playlists[i]![0]}), not a video: the files it names are not read; upload the lesson's video file itself`,
        renditionHeights: [],
        durationMs: null,
      });
      expect(await storageOf(api).exists(`videos/${videoId}/v1/master.m3u8`)).toBe(false);
    }
    expect(
      await LessonVideo.query(db)
        .whereIn(
          'id',
          uploads.map((u) => u.videoId),
        )
        .where({ status: 'ready' }),
    ).toEqual([]);
  });

  it('without ffmpeg, fails the video saying what to install, warns once at start, and the rest of the API answers', async () => {
    const nowhere = {
      FFMPEG_PATH: path.join(workDir, 'no', 'ffmpeg'),
      FFPROBE_PATH: path.join(workDir, 'no', 'ffprobe'),
    };
    const api = await replica(nowhere);
    const target = await lesson('Without ffmpeg');
    const bytes = await makeVideo('tools.mp4', { size: '320x240', seconds: 1, audio: false });
    const { videoId } = await uploadVideo(api, staff, target.id, bytes, 'tools.mp4');
    await api.services.jobs.runDue(PROCESS_VIDEO_JOB);

    const failed = await record(api, videoId);
    expect(failed.body).toMatchObject({ status: 'failed', error: FFMPEG_MISSING });
    expect(FFMPEG_MISSING).toBe(
      'ffmpeg is not installed on this server: install it (Debian/Ubuntu: apt-get install ffmpeg) and press Retry',
    );
    expect((await request(api.url).get('/api/health/live')).status).toBe(200);
    expect((await request(api.url).get('/api/store/products')).status).toBe(200);
    expect((await as(staff, request(api.url).get('/api/admin/videos'))).status).toBe(200);

    expect(await missingTools(videoTools(api.config))).toEqual([nowhere.FFMPEG_PATH, nowhere.FFPROBE_PATH]);
    const warnings: string[] = [];
    const logger = { warn: (_: object, message: string) => warnings.push(message) } as unknown as Logger;
    await warnWhenVideoToolsMissing(api.config, logger);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('apt-get install ffmpeg');
    await warnWhenVideoToolsMissing(testConfig(), logger);
    expect(warnings).toHaveLength(1); // installed here: nothing to say
  });

  it('stops ffmpeg when the server shuts down, and leaves the video queued for another run', async () => {
    const db = database().db;
    const api = await replica();
    const target = await lesson('Interrupted');
    // A minute long: ffmpeg is still at work when the test stops it, however fast the machine.
    const bytes = await makeVideo('long.mp4', { size: '1280x720', seconds: 60, audio: false });
    const { videoId } = await uploadVideo(api, staff, target.id, bytes, 'long.mp4');
    for (;;) {
      const row = await LessonVideo.query(db).findById(videoId);
      if (row?.status === 'processing' && row.progress > 0) break;
      expect(row?.status).not.toBe('ready');
      await delay(20);
    }
    await api.services.jobs.stop(); // as npm start does on Ctrl-C or SIGTERM
    // stop() waited for the run, which ended with ffmpeg killed: queued again, to be retried, nothing kept.
    expect(await LessonVideo.query(db).findById(videoId)).toMatchObject({
      status: 'queued',
      progress: 0,
      hlsKey: null,
    });
    const job = (await jobsOf(db, PROCESS_VIDEO_JOB)).find((j) => j.data.videoId === videoId);
    expect(job).toMatchObject({
      state: 'retry',
      output: { message: 'processing was stopped (the server is shutting down)' },
    });
    expect(await storageOf(api).exists(`videos/${videoId}/v1/master.m3u8`)).toBe(false);
  });

  it('does nothing in a run for a version since replaced, and a new version removes the old outputs once ready', async () => {
    const db = database().db;
    const api = await replica();
    const target = await lesson('Versions');
    const first = await makeVideo('v1.mp4', { size: '640x360', seconds: 2 });
    const { videoId } = await uploadVideo(api, staff, target.id, first, 'first.mov');
    await api.services.jobs.runDue(PROCESS_VIDEO_JOB);
    expect((await record(api, videoId)).body).toMatchObject({ status: 'ready', renditionHeights: [360] });
    const storage = storageOf(api);
    expect(await storage.exists(`videos/${videoId}/v1/master.m3u8`)).toBe(true);

    // A second source takes version 2 (its job not run yet); a job left for version 1 runs meanwhile.
    await LessonVideo.query(db).findById(videoId).patch({ version: 2, status: 'queued', progress: 0 });
    const before = await LessonVideo.query(db).findById(videoId);
    await api.services.jobs.add(db, PROCESS_VIDEO_JOB, { videoId, version: 1 });
    await api.services.jobs.runDue(PROCESS_VIDEO_JOB);
    expect(await LessonVideo.query(db).findById(videoId)).toEqual(before);
    expect((await jobsOf(db, PROCESS_VIDEO_JOB)).at(-1)?.state).toBe('completed');

    // The real second upload: version 3 replaces it, and its outputs replace version 1's.
    const second = await makeVideo('v2.mp4', { size: '640x360', seconds: 3 });
    const replaced = await uploadVideo(api, staff, target.id, second, 'second.webm');
    expect(replaced.videoId).toBe(videoId);
    expect(await storage.exists(`videos/${videoId}/source/v1.mov`)).toBe(false); // the replaced source went
    await api.services.jobs.runDue(PROCESS_VIDEO_JOB);
    const done = await record(api, videoId);
    expect(done.body).toMatchObject({
      status: 'ready',
      sourceName: 'second.webm',
      posterUrl: expect.stringMatching(/\?v=3$/),
    });
    expect(Math.abs(done.body.durationMs - 3000)).toBeLessThanOrEqual(100);
    expect(await storage.exists(`videos/${videoId}/source/v3.webm`)).toBe(true);
    expect(await storage.exists(`videos/${videoId}/v3/master.m3u8`)).toBe(true);
    expect(await storage.exists(`videos/${videoId}/v1/master.m3u8`)).toBe(false);
    expect(await storage.exists(`videos/${videoId}/v1/360p/seg-00001.ts`)).toBe(false);
  });

  it('takes WebVTT captions per language, refuses broken ones saying where, and removes them; all audited', async () => {
    const db = database().db;
    const api = await replica();
    const target = await lesson('Captions');
    const { videoId } = await uploadVideo(api, staff, target.id, Buffer.from('not yet processed'), 'c.mp4');
    await api.services.jobs.runDue(PROCESS_VIDEO_JOB);
    const vtt = 'WEBVTT\n\n00:00.000 --> 00:01.500\nHello\n\n00:01.500 --> 00:03.000\n<v Ana>World</v>\n';

    const put = await as(staff, request(api.url).put(`/api/admin/videos/${videoId}/captions/pt-BR`)).send({
      label: 'Português',
      vtt,
    });
    expect(put.status).toBe(200);
    expect(put.body.captions).toEqual([{ language: 'pt-BR', label: 'Português', cueCount: 2 }]);
    const replaced = await as(staff, request(api.url).put(`/api/admin/videos/${videoId}/captions/pt-BR`)).send({
      label: 'Portuguese',
      vtt: 'WEBVTT\n\n00:00.000 --> 00:01.000\nOi\n',
    });
    expect(replaced.body.captions).toEqual([{ language: 'pt-BR', label: 'Portuguese', cueCount: 1 }]);

    const broken = await as(staff, request(api.url).put(`/api/admin/videos/${videoId}/captions/en`)).send({
      label: 'English',
      vtt: 'WEBVTT\n\n00:00.000 --> 00:01.000\nfine\n\n00:02.000 --> soon\nbroken\n',
    });
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({
      code: 'caption-invalid',
      message: 'The captions are not valid WebVTT: line 6: "soon" is not a time like 00:04.000.',
      errors: { vtt: 'line 6: "soon" is not a time like 00:04.000' },
    });
    const notVtt = await as(staff, request(api.url).put(`/api/admin/videos/${videoId}/captions/en`)).send({
      label: 'English',
      vtt: '1\n00:00:00,000 --> 00:00:01,000\nan SRT file\n',
    });
    expect(notVtt.status).toBe(400);
    expect(notVtt.body.errors.vtt).toBe('line 1: a WebVTT file starts with the line "WEBVTT"');
    const badLanguage = await as(staff, request(api.url).put(`/api/admin/videos/${videoId}/captions/English`)).send({
      label: 'English',
      vtt,
    });
    expect(badLanguage.status).toBe(400);

    const removed = await as(staff, request(api.url).delete(`/api/admin/videos/${videoId}/captions/pt-BR`));
    expect(removed.status).toBe(200);
    expect(removed.body.captions).toEqual([]);
    expect((await as(staff, request(api.url).delete(`/api/admin/videos/${videoId}/captions/pt-BR`))).status).toBe(404);
    expect(
      (await AuditLog.query(db).where({ resource: 'videos', recordId: videoId }).orderBy('id')).map((a) => a.action),
    ).toEqual(['upload', 'set-captions', 'set-captions', 'remove-captions']);
  });

  it('deletes a video with everything it has in the storage, audited', async () => {
    const db = database().db;
    const api = await replica();
    const target = await lesson('Deleted');
    const bytes = await makeVideo('gone.mp4', { size: '640x360', seconds: 1 });
    const { videoId } = await uploadVideo(api, staff, target.id, bytes, 'gone.mp4');
    await api.services.jobs.runDue(PROCESS_VIDEO_JOB);
    const storage = storageOf(api);
    expect(await storage.exists(`videos/${videoId}/v1/poster.jpg`)).toBe(true);

    const deleted = await as(staff, request(api.url).delete(`/api/admin/videos/${videoId}`));
    expect(deleted.status).toBe(200);
    expect(deleted.body.id).toBe(videoId);
    expect(await LessonVideo.query(db).findById(videoId)).toBeUndefined();
    for (const key of ['source/v1.mp4', 'v1/master.m3u8', 'v1/360p/index.m3u8', 'v1/poster.jpg']) {
      expect(await storage.exists(`videos/${videoId}/${key}`)).toBe(false);
    }
    expect((await record(api, videoId)).status).toBe(404);
    const none = await as(staff, request(api.url).get(`/api/admin/lessons/${target.id}/video`));
    expect(none.status).toBe(404);
    expect(none.body.code).toBe('not-found');
    expect(await AuditLog.query(db).where({ resource: 'videos', recordId: videoId, action: 'delete' })).toHaveLength(1);
  });

  it('refuses uploads too large, for no lesson, or without CSRF; only staff reach the routes, learners get 403', async () => {
    const db = database().db;
    const api = await replica({ VIDEO_MAX_BYTES: String(2 * 1024 * 1024) });
    const target = await lesson('Guarded');
    const fields = { lessonId: target.id, filename: 'big.mp4' };

    const tooLarge = await createUpload(api, staff, fields, 3 * 1024 * 1024);
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toMatchObject({
      code: 'payload-too-large',
      message: 'The video is 3.0 MB; the largest allowed is 2.0 MB (VIDEO_MAX_BYTES).',
    });
    const noLesson = await createUpload(
      api,
      staff,
      { ...fields, lessonId: '00000000-0000-4000-8000-000000000000' },
      10,
    );
    expect(noLesson.status).toBe(404);
    const noMetadata = await createUpload(api, staff, {}, 10);
    expect(noMetadata.status).toBe(400);
    expect((await noMetadata.json()).errors).toMatchObject({
      lessonId: expect.any(String),
      filename: expect.any(String),
    });

    const noCsrf = await fetch(`${api.url}${UPLOADS}`, {
      method: 'POST',
      headers: { 'Tus-Resumable': '1.0.0', ...authHeaders(staff, false), 'Upload-Length': '10' },
    });
    expect(noCsrf.status).toBe(403);
    expect((await noCsrf.json()).code).toBe('csrf-token-invalid');
    const created = await createUpload(api, staff, fields, 10);
    const location = created.headers.get('location')!;
    const patchNoCsrf = await fetch(`${api.url}${location}`, {
      method: 'PATCH',
      headers: {
        'Tus-Resumable': '1.0.0',
        ...authHeaders(staff, false),
        'Upload-Offset': '0',
        'Content-Type': 'application/offset+octet-stream',
      },
      body: new Uint8Array(10),
    });
    expect(patchNoCsrf.status).toBe(403);

    const id = '00000000-0000-4000-8000-000000000000';
    const upload = location.split('/').pop()!;
    const routes: [string, string][] = [
      ['POST', UPLOADS],
      ['PATCH', `${UPLOADS}/${upload}`],
      ['HEAD', `${UPLOADS}/${upload}`],
      ['DELETE', `${UPLOADS}/${upload}`],
      ['GET', '/api/admin/videos'],
      ['GET', `/api/admin/videos/${id}`],
      ['GET', `/api/admin/videos/${id}/poster.jpg`],
      ['GET', `/api/admin/lessons/${target.id}/video`],
      ['POST', `/api/admin/videos/${id}/retry`],
      ['DELETE', `/api/admin/videos/${id}`],
      ['PUT', `/api/admin/videos/${id}/captions/en`],
      ['DELETE', `/api/admin/videos/${id}/captions/en`],
    ];
    const learner = await signedIn(db, ['learner']);
    const finance = await signedIn(db, ['finance']);
    for (const [method, url] of routes) {
      const asLearner = await fetch(`${api.url}${url}`, { method, headers: tusHeaders(learner) });
      expect([method, url, asLearner.status]).toEqual([method, url, 403]);
      const signedOut = await fetch(`${api.url}${url}`, { method, headers: tusHeaders(undefined) });
      expect([method, url, signedOut.status]).toEqual([method, url, 401]);
      const asFinance = await fetch(`${api.url}${url}`, { method, headers: tusHeaders(finance) });
      const reads = method === 'GET';
      expect([method, url, asFinance.status === 403]).toEqual([method, url, !reads]);
    }
    // The upload, untouched by all that, still takes its bytes.
    expect((await headUpload(api, staff, location)).headers.get('upload-offset')).toBe('0');
  });
});

describe('lesson videos on S3 storage', { timeout: 120_000 }, () => {
  const database = useTestDatabase();
  let s3: LoopbackS3;

  beforeAll(async () => {
    s3 = await startLoopbackS3();
    workDir = await mkdtemp(path.join(os.tmpdir(), 'lp-video-test-'));
  });
  afterAll(async () => {
    await s3?.stop();
    await rm(workDir, { recursive: true, force: true });
  });

  it('takes a tus upload into the bucket and processes it to ready there', async () => {
    const db = database().db;
    const config = testConfig(s3.env);
    const deps = testDeps(db, { config });
    const services = createServices(deps);
    expect(services.storage.kind).toBe('s3');
    const server = http.createServer(createApp(deps, { services }).callback());
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const api: Replica = {
      services,
      config,
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: async () => {},
    };
    try {
      const staff = await signedIn(db, ['support']);
      const { lessons } = await createCourse(db, {
        title: 'S3 course',
        modules: [{ title: 'M', sections: [{ title: 'S', lessons: [{ title: 'On S3', body: '<p>x</p>' }] }] }],
      });
      const bytes = await makeVideo('s3.mp4', { size: '640x360', seconds: 2 });
      const created = await createUpload(api, staff, { lessonId: lessons[0]!.id, filename: 's3.mp4' }, bytes.length);
      const location = created.headers.get('location')!;
      // In two parts, as a resumed upload sends it.
      const part = Math.floor(bytes.length / 3);
      expect((await patchUpload(api, staff, location, 0, bytes.subarray(0, part))).status).toBe(204);
      expect((await headUpload(api, staff, location)).headers.get('upload-offset')).toBe(String(part));
      const rest = await patchUpload(api, staff, location, part, bytes.subarray(part));
      expect(rest.status).toBe(204);
      const videoId = rest.headers.get('video-id')!;
      await services.jobs.runDue(PROCESS_VIDEO_JOB);

      const done = await as(staff, request(api.url).get(`/api/admin/videos/${videoId}`));
      expect(done.body).toMatchObject({ status: 'ready', renditionHeights: [360], width: 640, height: 360 });
      const storage = services.storage;
      expect(Buffer.compare(await readAll((await storage.get(`videos/${videoId}/source/v1.mp4`))!.body), bytes)).toBe(
        0,
      );
      expect(await storage.exists(`videos/${videoId}/v1/master.m3u8`)).toBe(true);
      expect(await storage.exists(`videos/${videoId}/v1/360p/seg-00001.ts`)).toBe(true);
      expect(await storage.exists(`videos/${videoId}/v1/poster.jpg`)).toBe(true);
      const upload = location.split('/').pop()!;
      expect(await storage.exists(`uploads/${upload}`)).toBe(false);
      expect(await storage.exists(`uploads/${upload}.info`)).toBe(false);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
