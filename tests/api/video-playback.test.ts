import { randomBytes, randomUUID } from 'node:crypto';
import request, { type Response } from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import type { Config } from '../../api/src/config';
import { type ContentResource, LessonVideo, type Product, VideoCaption, VideoPosition } from '../support/models';
import { createStorage } from '../../api/src/media/storage';
import { createServices } from '../../api/src/services';
import { createCourse, createProduct, createPurchase } from '../../seeds/factories';
import { testConfig, testDeps } from '../support/app';
import { as, signedIn, signedInByEmail, type SignedIn } from '../support/auth';
import { manualClock } from '../support/clock';
import { useTestDatabase } from '../support/db';

const MINUTE = 60_000;

const VTT = `WEBVTT

00:00:01.000 --> 00:00:04.000
Welcome to <b>the</b> lesson.

intro
00:00:05.000 --> 00:00:09.500
Generics &amp; you.
`;

/** A tiny HLS set as processing writes it: playlists that name their files by relative paths, and two segments. */
function hlsFiles(heights: number[]) {
  const files: Record<string, Buffer> = {
    'master.m3u8': Buffer.from(
      ['#EXTM3U', ...heights.flatMap((h) => [`#EXT-X-STREAM-INF:BANDWIDTH=${h * 1000}`, `${h}p/index.m3u8`])].join(
        '\n',
      ) + '\n',
    ),
    'poster.jpg': Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), randomBytes(200)]),
  };
  for (const h of heights) {
    files[`${h}p/index.m3u8`] = Buffer.from(
      '#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\nseg-00001.ts\n#EXTINF:4.0,\nseg-00002.ts\n#EXT-X-ENDLIST\n',
    );
    files[`${h}p/seg-00001.ts`] = randomBytes(1000);
    files[`${h}p/seg-00002.ts`] = randomBytes(700);
  }
  return files;
}

describe('video playback (issue 18)', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const clock = manualClock();
  let config: Config;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let product: Product;
  let course: ContentResource;
  let lessons: Record<'intro' | 'watch' | 'read' | 'plain', ContentResource>;
  /** The files of the paid lesson's video, by their name after the token. */
  let files: Record<string, Buffer>;

  const appWith = (env: Record<string, string> = {}, appClock = clock) => {
    const deps = testDeps(db(), { config: testConfig(env), clock: appClock });
    return createApp(deps, { services: createServices(deps) }).callback();
  };

  /** A ready video on a lesson, written as processing leaves it: its files in the storage, its row, its captions. */
  async function addVideo(lesson: ContentResource, durationMs: number, heights = [360, 720]) {
    const id = randomUUID();
    const folder = `videos/${id}/v1`;
    const storage = createStorage(config);
    const written = hlsFiles(heights);
    for (const [name, bytes] of Object.entries(written)) {
      await storage.put(`${folder}/${name}`, bytes, 'application/octet-stream');
    }
    await LessonVideo.query(db()).insert({
      id,
      lessonId: lesson.id,
      status: 'ready',
      progress: 100,
      version: 1,
      sourceKey: `videos/${id}/source/v1.mp4`,
      sourceName: 'lesson.mp4',
      sourceSize: 12345,
      durationMs,
      width: 1280,
      height: Math.max(...heights),
      renditionHeights: heights,
      hlsKey: `${folder}/master.m3u8`,
      posterKey: `${folder}/poster.jpg`,
      processedAt: new Date(),
    });
    await VideoCaption.query(db()).insert({ videoId: id, language: 'en', label: 'English', vtt: VTT });
    return { id, files: written };
  }

  beforeAll(async () => {
    config = testConfig();
    app = appWith();
    product = await createProduct(db(), { name: 'Video Course' });
    const lesson = (title: string) => ({ title, body: `<p>${title} body</p>` });
    const made = await createCourse(
      db(),
      {
        title: 'Video Course',
        modules: [
          {
            title: 'One',
            sections: [{ title: 'A', lessons: [lesson('Intro'), lesson('Watch'), lesson('Read'), lesson('Plain')] }],
          },
        ],
      },
      { products: [product] },
    );
    course = made.course;
    const [intro, watch, read, plain] = made.lessons as [ContentResource, ...ContentResource[]];
    lessons = { intro, watch: watch!, read: read!, plain: plain! };
    // Intro (free: the module's first) has a 30 s video, Watch (paid) 100 s; Read has a typed length; Plain nothing.
    await addVideo(lessons.intro, 30_000, [360]);
    ({ files } = await addVideo(lessons.watch, 100_000));
    await db()('contentResources')
      .where({ id: lessons.read.id })
      .update({ fields: db().raw(`fields || jsonb_build_object('durationMinutes', 7)`) });
  });

  const slug = () => course.fields.slug!;
  const lessonAnswer = async (who: SignedIn | undefined, lesson: ContentResource, on = app) => {
    const answer = await as(who, request(on).get(`/api/store/courses/${slug()}/lessons/${lesson.id}`));
    expect(answer.status).toBe(200);
    return answer.body;
  };
  const media = (who: SignedIn | undefined, url: string, on = app) =>
    as(who, request(on).get(url))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
  const errorOf = (response: Response) => JSON.parse((response.body as Buffer).toString()) as { code: string };
  const savePosition = (who: SignedIn | undefined, lesson: ContentResource, body: object, on = app) =>
    as(who, request(on).put(`/api/store/lessons/${lesson.id}/position`)).send(body);
  /** A learner who holds the course. */
  const owner = async () => {
    const learner = await signedIn(db());
    await createPurchase(db(), { user: learner.user, product });
    return learner;
  };
  /** A file of a signed video link (the playlists' relative paths resolve the same way). */
  const fileOf = (hls: string, name: string) => hls.replace(/master\.m3u8$/, name);

  it('gives a learner who holds the course signed links that serve the right bytes, types and ranges', async () => {
    const learner = await owner();
    const { video } = await lessonAnswer(learner, lessons.watch);
    expect(video).toMatchObject({
      status: 'ready',
      hls: expect.stringMatching(/^\/media\/videos\/[\w-]+\.[\w-]+\/master\.m3u8$/),
      poster: expect.stringMatching(/^\/media\/videos\/[\w-]+\.[\w-]+\/poster\.jpg$/),
      captions: [{ language: 'en', label: 'English', src: expect.stringMatching(/\/captions\/en\.vtt$/) }],
      durationSeconds: 100,
      positionSeconds: 0,
      transcript: [
        {
          language: 'en',
          label: 'English',
          cues: [
            { start: 1, end: 4, text: 'Welcome to the lesson.' },
            { start: 5, end: 9.5, text: 'Generics & you.' },
          ],
        },
      ],
    });

    const master = await media(learner, video.hls);
    expect(master.status).toBe(200);
    expect(master.headers['content-type']).toBe('application/vnd.apple.mpegurl');
    expect(master.body).toEqual(files['master.m3u8']);
    // The link lives max(30 min, 2 × 100 s + 10 min) = 30 min: the browser may keep it no longer.
    expect(master.headers['cache-control']).toMatch(/^private, max-age=(1799|1800)$/);
    expect(master.headers['accept-ranges']).toBe('bytes');
    // The master playlist's relative paths, resolved against its own address, keep the token.
    const rendition = new URL('720p/index.m3u8', `http://localhost${video.hls}`).pathname;
    const playlist = await media(learner, rendition);
    expect(playlist.status).toBe(200);
    expect(playlist.headers['content-type']).toBe('application/vnd.apple.mpegurl');
    expect(playlist.body).toEqual(files['720p/index.m3u8']);
    const segment = await media(learner, new URL('seg-00002.ts', `http://localhost${rendition}`).pathname);
    expect(segment.status).toBe(200);
    expect(segment.headers['content-type']).toBe('video/mp2t');
    expect(segment.body).toEqual(files['720p/seg-00002.ts']);

    const part = await media(learner, fileOf(video.hls, '360p/seg-00001.ts')).set('Range', 'bytes=100-199');
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 100-199/1000');
    expect(part.headers['content-length']).toBe('100');
    expect(part.body).toEqual(files['360p/seg-00001.ts']!.subarray(100, 200));
    const tail = await media(learner, fileOf(video.hls, '360p/seg-00001.ts')).set('Range', 'bytes=900-');
    expect(tail.status).toBe(206);
    expect(tail.body).toEqual(files['360p/seg-00001.ts']!.subarray(900));
    const past = await media(learner, fileOf(video.hls, '360p/seg-00001.ts')).set('Range', 'bytes=5000-');
    expect(past.status).toBe(416);
    expect(past.headers['content-range']).toBe('bytes */1000');

    const poster = await media(learner, video.poster);
    expect(poster.status).toBe(200);
    expect(poster.headers['content-type']).toBe('image/jpeg');
    expect(poster.body).toEqual(files['poster.jpg']);
    const captions = await media(learner, video.captions[0].src);
    expect(captions.status).toBe(200);
    expect(captions.headers['content-type']).toBe('text/vtt; charset=utf-8');
    expect(captions.body.toString()).toBe(VTT);
    const captionPart = await media(learner, video.captions[0].src).set('Range', 'bytes=0-5');
    expect(captionPart.status).toBe(206);
    expect(captionPart.body.toString()).toBe('WEBVTT');

    // Only the video's own files: no rendition it lacks, no other name, no way out of its folder.
    for (const name of [
      '1080p/index.m3u8',
      '720p/seg-1.ts',
      'source/v1.mp4',
      '..%2F..%2Fsource%2Fv1.mp4',
      'captions/de.vtt',
    ]) {
      const answer = await media(learner, fileOf(video.hls, name));
      expect(answer.status, name).toBe(404);
    }
  });

  it('locks the video of a lesson a learner cannot open, and refuses them (and visitors) the owner’s links', async () => {
    const learner = await owner();
    const { video: owned } = await lessonAnswer(learner, lessons.watch);
    const stranger = await signedIn(db());
    const locked = await lessonAnswer(stranger, lessons.watch);
    expect(locked.open).toBe(false);
    expect(locked.video).toEqual({
      status: 'ready',
      hls: null,
      poster: null,
      captions: [],
      durationSeconds: 100,
      positionSeconds: 0,
      transcript: [],
    });
    expect((await lessonAnswer(undefined, lessons.watch)).video).toMatchObject({ hls: null, captions: [] });

    for (const url of [owned.hls, fileOf(owned.hls, '720p/seg-00001.ts'), owned.poster, owned.captions[0].src]) {
      const theirs = await media(stranger, url);
      expect(theirs.status, url).toBe(403);
      expect(errorOf(theirs).code).toBe('media-not-yours');
      const visitor = await media(undefined, url);
      expect(visitor.status, url).toBe(403);
      expect(errorOf(visitor).code).toBe('media-not-yours');
    }
    // A lesson without a video says so.
    expect((await lessonAnswer(learner, lessons.read)).video).toBeNull();
  });

  it('refuses a link once it has expired, or when it was tampered with', async () => {
    const learner = await owner();
    const { video } = await lessonAnswer(learner, lessons.watch);
    const token = /\/media\/videos\/([^/]+)\//.exec(video.hls)![1]!;
    const [fields, signature] = token.split('.') as [string, string];
    const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
    for (const forged of [
      `${flip(fields, 10)}.${signature}`, // another expiry or video
      `${fields}.${flip(signature, 5)}`,
      `${fields}.${signature.slice(0, -1)}`,
      `${fields}`,
      'not-a-token',
    ]) {
      const answer = await media(learner, video.hls.replace(token, forged));
      expect(answer.status, forged).toBe(403);
      expect(errorOf(answer).code).toBe('media-link-invalid');
    }
    // Signed with another key (a server with its own MEDIA_URL_SECRET): not ours.
    const elsewhere = appWith({ MEDIA_URL_SECRET: 'another-key-another-key-another-key!' });
    const foreign = (await lessonAnswer(learner, lessons.watch, elsewhere)).video.hls;
    expect(errorOf(await media(learner, foreign)).code).toBe('media-link-invalid');

    expect((await media(learner, video.hls)).status).toBe(200);
    clock.advance(29 * MINUTE);
    expect((await media(learner, video.hls)).status).toBe(200);
    clock.advance(MINUTE);
    const expired = await media(learner, video.hls);
    expect(expired.status).toBe(403);
    expect(errorOf(expired).code).toBe('media-link-expired');
    // A fresh look at the lesson gives a fresh link.
    expect((await media(learner, (await lessonAnswer(learner, lessons.watch)).video.hls)).status).toBe(200);
  });

  it('signs with one key every replica shares, and stops old links when a new upload replaces the video', async () => {
    const learner = await owner();
    const { video } = await lessonAnswer(learner, lessons.watch);
    const replica = appWith(); // another process: its own services, the same database
    expect((await media(learner, video.hls, replica)).status).toBe(200);
    expect(await db()('signingKeys').count({ n: '*' })).toEqual([{ n: 1 }]);

    const other = await owner();
    const { video: intro } = await lessonAnswer(other, lessons.intro);
    const row = await LessonVideo.query(db()).findOne({ lessonId: lessons.intro.id });
    await LessonVideo.query(db()).patch({ version: 2 }).findById(row!.id);
    const stale = await media(other, intro.hls);
    expect(stale.status).toBe(403);
    expect(errorOf(stale).code).toBe('media-link-invalid');
    await LessonVideo.query(db()).patch({ version: 1 }).findById(row!.id);
  });

  it('closes the video within READ_CACHE_MS of a refund, whatever time the link has left', async () => {
    const cachedClock = manualClock();
    const cached = appWith({ READ_CACHE_MS: '1000' }, cachedClock);
    const learner = await signedIn(db());
    const purchase = await createPurchase(db(), { user: learner.user, product });
    const { video } = await lessonAnswer(learner, lessons.watch, cached);
    const segment = fileOf(video.hls, '360p/seg-00001.ts');
    expect((await media(learner, video.hls, cached)).status).toBe(200);
    // Refunded by another process: this one sees it when its cached answer ends.
    await db()('purchases').where({ id: purchase.id }).update({ status: 'Refunded' });
    expect((await media(learner, segment, cached)).status).toBe(200);
    cachedClock.advance(1001);
    for (const url of [video.hls, segment]) {
      const closed = await media(learner, url, cached);
      expect(closed.status).toBe(403);
      expect(errorOf(closed).code).toBe('lesson-locked');
    }
  });

  it('plays a free lesson for visitors, with links that name no learner', async () => {
    const { video, open } = await lessonAnswer(undefined, lessons.intro);
    expect(open).toBe(true);
    expect(video).toMatchObject({ status: 'ready', durationSeconds: 30, positionSeconds: 0 });
    const master = await media(undefined, video.hls);
    expect(master.status).toBe(200);
    expect((await media(undefined, fileOf(video.hls, '360p/seg-00001.ts'))).status).toBe(200);
    expect((await media(await signedIn(db()), video.hls)).status).toBe(200);
    // Only the renditions this video has.
    expect((await media(undefined, fileOf(video.hls, '720p/index.m3u8'))).status).toBe(404);
  });

  it('saves the position and resumes it on a second device; free lessons too', async () => {
    const learner = await owner();
    const saved = await savePosition(learner, lessons.watch, { positionSeconds: 31.25 });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ positionSeconds: 31.25, completed: false, progress: null });
    const phone = await signedInByEmail(db(), learner.user.email); // another session of the same person
    expect(phone.user.id).toBe(learner.user.id);
    expect((await lessonAnswer(phone, lessons.watch)).video.positionSeconds).toBe(31.25);
    expect((await savePosition(phone, lessons.watch, { positionSeconds: 12 })).body.positionSeconds).toBe(12);
    expect((await lessonAnswer(learner, lessons.watch)).video.positionSeconds).toBe(12);

    const visitorWithAccount = await signedIn(db());
    expect((await savePosition(visitorWithAccount, lessons.intro, { positionSeconds: 3 })).status).toBe(200);
    expect((await lessonAnswer(visitorWithAccount, lessons.intro)).video.positionSeconds).toBe(3);
  });

  it('writes nothing for a lesson the learner cannot open, or without a video, or a wrong position', async () => {
    const stranger = await signedIn(db());
    const locked = await savePosition(stranger, lessons.watch, { positionSeconds: 95 });
    expect(locked.status).toBe(403);
    expect(locked.body.code).toBe('lesson-locked');
    expect(await VideoPosition.query(db()).where({ userId: stranger.user.id })).toEqual([]);
    expect((await savePosition(undefined, lessons.watch, { positionSeconds: 5 })).status).toBe(401);
    const learner = await owner();
    expect((await savePosition(learner, lessons.read, { positionSeconds: 5 })).body.code).toBe('not-found');
    expect((await savePosition(learner, lessons.watch, { positionSeconds: -1 })).status).toBe(400);
    expect((await savePosition(learner, lessons.watch, { positionSeconds: '5' })).status).toBe(400);
    expect((await savePosition(learner, lessons.watch, { positionSeconds: 5, course: 'no-such-course' })).status).toBe(
      404,
    );
    expect(await VideoPosition.query(db()).where({ userId: learner.user.id })).toEqual([]);
    const unready = await LessonVideo.query(db()).findOne({ lessonId: lessons.watch.id });
    await LessonVideo.query(db()).patch({ status: 'processing' }).findById(unready!.id);
    expect((await savePosition(learner, lessons.watch, { positionSeconds: 5 })).body.code).toBe('video-not-ready');
    await LessonVideo.query(db()).patch({ status: 'ready' }).findById(unready!.id);
  });

  it('completes the lesson and the course progress at 90 % of the video, not at 89 %', async () => {
    const short = await owner();
    const below = await savePosition(short, lessons.watch, { positionSeconds: 89.9 });
    expect(below.body).toEqual({ positionSeconds: 89.9, completed: false, progress: null });
    expect((await lessonAnswer(short, lessons.watch)).completed).toBe(false);

    const learner = await owner();
    const reached = await savePosition(learner, lessons.watch, { positionSeconds: 90, course: slug() });
    expect(reached.status).toBe(200);
    expect(reached.body).toMatchObject({
      positionSeconds: 90,
      completed: true,
      progress: {
        lessonId: lessons.watch.id,
        completed: true,
        course: { id: course.id, progress: { completed: 1, total: 4, percent: 25 } },
      },
    });
    expect((await lessonAnswer(learner, lessons.watch)).completed).toBe(true);
    // Watching on (or past the end, clamped) keeps it complete, and answers no new progress.
    expect((await savePosition(learner, lessons.watch, { positionSeconds: 500 })).body).toEqual({
      positionSeconds: 100,
      completed: true,
      progress: null,
    });
    // Going back does not take the completion away.
    expect((await savePosition(learner, lessons.watch, { positionSeconds: 10 })).body).toMatchObject({
      positionSeconds: 10,
      completed: true,
    });
  });

  it('takes the threshold from VIDEO_COMPLETE_PERCENT', async () => {
    const half = appWith({ VIDEO_COMPLETE_PERCENT: '50' });
    const learner = await owner();
    expect((await savePosition(learner, lessons.watch, { positionSeconds: 49.9 }, half)).body.completed).toBe(false);
    expect((await savePosition(learner, lessons.watch, { positionSeconds: 50 }, half)).body).toMatchObject({
      completed: true,
      progress: { course: { progress: { completed: 1 } } },
    });
  });

  it('shows minutes per lesson and left in the course outline, and the same on the sales page', async () => {
    type Item = { title: string; durationMinutes: number | null };
    const itemsOf = (outline: { modules: { sections: { lessons: Item[] }[] }[] }) =>
      outline.modules.flatMap((m) => m.sections.flatMap((s) => s.lessons));
    const visitor = (await request(app).get(`/api/store/courses/${slug()}`)).body;
    // A ready video's length rounded up (30 s → 1, 100 s → 2), else the typed length, else unknown.
    expect(itemsOf(visitor).map((l) => [l.title, l.durationMinutes])).toEqual([
      ['Intro', 1],
      ['Watch', 2],
      ['Read', 7],
      ['Plain', null],
    ]);
    // One lesson of unknown length: the course's length is unknown, never the partial sum (docs/domain.md §11).
    expect(visitor).toMatchObject({ totalMinutes: null, minutesLeft: null });

    const learner = await owner();
    await savePosition(learner, lessons.watch, { positionSeconds: 95 });
    const mine = (await as(learner, request(app).get(`/api/store/courses/${slug()}`))).body;
    expect(mine).toMatchObject({ totalMinutes: null, minutesLeft: null });

    const page = (await request(app).get(`/api/store/products/${product.id}`)).body;
    const curriculum = page.curriculum.find((c: { id: string }) => c.id === course.id);
    expect(itemsOf(curriculum).map((l: Item) => l.durationMinutes)).toEqual([1, 2, 7, null]);
    expect(curriculum.durationMinutes).toBeNull();
  });

  it('lets the lesson page play HLS under its Content-Security-Policy (MSE blob: media, hls.js’s blob: worker)', async () => {
    const csp = (await request(app).get('/api/health')).headers['content-security-policy'] as string;
    expect(csp).toContain("media-src 'self' blob:");
    expect(csp).toContain("worker-src 'self' blob:");
  });
});
