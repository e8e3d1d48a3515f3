import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { PROJECT_ROOT } from '../../api/src/config';
import type { ContentResource } from '../support/models';
import type { User } from '../../api/src/identity/models';
import { sessions } from '../../api/src/identity/sign-in/sessions';
import { createServices, type Services } from '../../api/src/services';
import { PROCESS_VIDEO_JOB } from '../../api/src/video/process-video';
import { createCourse, createProduct, createPurchase, createUser } from '../../seeds/factories';
import { runSeeds } from '../../seeds/run';
import { testConfig, testDeps } from '../support/app';
import { signedIn, type SignedIn } from '../support/auth';
import { checkScreen, contextFor, launchChromium, signedInContext } from '../support/browser';
import { useTestDatabase } from '../support/db';

/*
 * Lesson videos on the storefront (issue 18), end to end: a video made here with ffmpeg, uploaded over tus as the
 * console does and processed by the real queue's job, then played in Chromium through hls.js.
 */

const run = promisify(execFile);
const SECONDS = 12;

const ENGLISH = `WEBVTT

00:00:00.000 --> 00:00:03.000
Welcome to the video lesson.

00:00:03.000 --> 00:00:06.000
Generics and you, a first look.

00:00:06.000 --> 00:00:09.000
Type parameters name what varies.

00:00:09.000 --> 00:00:12.000
That is all for today.
`;

const FRENCH = `WEBVTT

00:00:00.000 --> 00:00:03.000
Bienvenue dans la leçon en vidéo.

00:00:03.000 --> 00:00:12.000
Les génériques et vous.
`;

/** The built storefront's chunks of hls.js (the light build and its worker), as the page requests them. */
function hlsFiles(): string[] {
  const manifest = JSON.parse(
    readFileSync(path.join(PROJECT_ROOT, 'storefront', 'dist', '.vite', 'manifest.json'), 'utf8'),
  ) as Record<string, { file: string }>;
  const files = Object.entries(manifest)
    .filter(([source]) => source.includes('node_modules/hls.js/'))
    .map(([, chunk]) => `/${chunk.file}`);
  expect(files).toHaveLength(2);
  return files;
}

/** The page's video element, as a script sees it. */
function videoState(page: Page) {
  return page.evaluate(() => {
    const video = document.querySelector<HTMLVideoElement>('.lesson-video video')!;
    return {
      readyState: video.readyState,
      currentTime: video.currentTime,
      duration: video.duration,
      paused: video.paused,
      playbackRate: video.playbackRate,
      tracks: [...video.textTracks].map((t) => ({ language: t.language, label: t.label, mode: t.mode })),
    };
  });
}

/** Waits until the video plays on its own (its time moves forward past `beyond`). */
async function waitUntilPlaying(page: Page, beyond: number): Promise<void> {
  await expect.poll(async () => (await videoState(page)).currentTime, { timeout: 20_000 }).toBeGreaterThan(beyond);
  expect((await videoState(page)).readyState).toBeGreaterThanOrEqual(2); // HAVE_CURRENT_DATA: frames decoded
}

describe('lesson videos on the storefront (Chromium)', { timeout: 120_000 }, () => {
  const database = useTestDatabase();
  let workDir: string;
  let baseUrl: string;
  let services: Services;
  let close: () => Promise<void>;
  let browser: Browser;
  let staff: SignedIn;
  let owner: User;
  let courseSlug: string;
  let lessons: Record<'welcome' | 'deepDive' | 'reading' | 'soon', ContentResource>;
  let source: Buffer;
  const contexts: BrowserContext[] = [];

  const lessonUrl = (lesson: ContentResource) => `${baseUrl}/courses/${courseSlug}/lessons/${lesson.fields.slug}`;

  /** A console upload (tus 1.0: create, then the bytes in one PATCH); answers the video's id. */
  async function upload(lesson: ContentResource): Promise<string> {
    const headers = { 'Tus-Resumable': '1.0.0', Cookie: staff.cookie, 'X-CSRF-Token': staff.csrfToken };
    const metadata = Object.entries({ lessonId: lesson.id, filename: 'lesson.mp4', filetype: 'video/mp4' })
      .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
      .join(',');
    const created = await fetch(`${baseUrl}/api/admin/uploads/videos`, {
      method: 'POST',
      headers: { ...headers, 'Upload-Length': String(source.length), 'Upload-Metadata': metadata },
    });
    expect(created.status).toBe(201);
    const sent = await fetch(`${baseUrl}${created.headers.get('location')}`, {
      method: 'PATCH',
      headers: { ...headers, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
      body: new Uint8Array(source),
    });
    expect(sent.status).toBe(204);
    return sent.headers.get('video-id')!;
  }

  async function putCaptions(videoId: string, language: string, label: string, vtt: string): Promise<void> {
    const answer = await fetch(`${baseUrl}/api/admin/videos/${videoId}/captions/${language}`, {
      method: 'PUT',
      headers: { Cookie: staff.cookie, 'X-CSRF-Token': staff.csrfToken, 'Content-Type': 'application/json' },
      body: JSON.stringify({ label, vtt }),
    });
    expect(answer.status).toBe(200);
  }

  /** The owner's browser on another device: a session of their own. */
  async function ownerContext(): Promise<BrowserContext> {
    const db = database().db;
    const session = await sessions({ db, clock: { now: () => new Date() } }).create(
      db,
      owner.id,
      'another device',
      'email',
    );
    const context = await contextFor(browser, baseUrl, {
      user: owner,
      cookie: `lp_session=${session.token}; lp_csrf=${session.csrfToken}`,
      csrfToken: session.csrfToken,
    });
    contexts.push(context);
    return context;
  }

  /** A page that collects what its console and scripts say went wrong. */
  async function watchedPage(context: BrowserContext): Promise<{ page: Page; errors: string[] }> {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    return { page, errors };
  }

  const savedPosition = async () =>
    (await database().db('videoPositions').where({ userId: owner.id, lessonId: lessons.deepDive.id }).first())
      ?.positionMs as number | undefined;

  beforeAll(async () => {
    const db = database().db;
    workDir = await mkdtemp(path.join(os.tmpdir(), 'lp-video-e2e-'));
    await runSeeds(db, { demo: false });

    const product = await createProduct(db, { name: 'Generics on Video', unitAmount: 4900 });
    // The course's author uploads its videos (contributors change only the lessons they wrote).
    staff = await signedIn(db, ['contributor']);
    const made = await createCourse(
      db,
      {
        title: 'Generics on Video',
        modules: [
          {
            title: 'Basics',
            sections: [
              {
                title: 'Start',
                lessons: [
                  { title: 'Welcome', body: '<p>Watch the welcome.</p>' },
                  { title: 'Deep dive', body: '<p>Notes under the video.</p>' },
                  { title: 'Reading', body: '<p>Read this.</p>' },
                  { title: 'Coming soon', body: '<p>Soon.</p>' },
                ],
              },
            ],
          },
        ],
      },
      { products: [product], createdById: staff.user.id },
    );
    courseSlug = made.course.fields.slug as string;
    const [welcome, deepDive, reading, soon] = made.lessons as [ContentResource, ...ContentResource[]];
    lessons = { welcome, deepDive: deepDive!, reading: reading!, soon: soon! };
    await db('contentResources')
      .where({ id: lessons.reading.id })
      .update({ fields: db.raw(`fields || jsonb_build_object('durationMinutes', 7)`) });

    owner = await createUser(db, { email: 'watcher@example.com' });
    await createPurchase(db, { user: owner, product });
    await db('userPrefs').insert({
      userId: owner.id,
      type: 'global',
      fields: { video: { playbackRate: 1.5, autoplayNext: false } },
    });

    // The whole product on a loopback port, its services at hand to run the processing job when the test says
    // (JOB_WORKERS off: an upload only queues it).
    const config = testConfig({ MEDIA_DIR: path.join(workDir, 'media'), JOB_WORKERS: 'false' });
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const deps = testDeps(db, { config: { ...config, PUBLIC_URL: baseUrl } });
    services = createServices(deps);
    server.on('request', createApp(deps, { services }).callback());
    close = () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });

    // A 12 s test pattern with a tone, as a learner's camera would not make it, but ffmpeg does in a second.
    const file = path.join(workDir, 'lesson.mp4');
    await run('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440'],
      ...['-t', String(SECONDS), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac'],
      file,
    ]);
    source = await readFile(file);
    const welcomeVideo = await upload(lessons.welcome);
    const deepDiveVideo = await upload(lessons.deepDive);
    await services.jobs.runDue(PROCESS_VIDEO_JOB);
    await putCaptions(welcomeVideo, 'en', 'English', ENGLISH);
    await putCaptions(deepDiveVideo, 'en', 'English', ENGLISH);
    await putCaptions(deepDiveVideo, 'fr', 'Français', FRENCH);
    // Uploaded, not processed yet.
    await upload(lessons.soon);

    browser = await launchChromium();
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await close?.();
    await rm(workDir, { recursive: true, force: true });
  });

  it('loads no player on the home page; a free lesson plays signed out, its transcript in the server’s HTML', async () => {
    const [lightChunk, worker] = hlsFiles();
    const html = await (await fetch(lessonUrl(lessons.welcome))).text();
    expect(html).toContain('Generics and you, a first look.');
    expect(html).toMatch(/<video[^>]* poster="\/media\/videos\/[^"]+\/poster\.jpg"/);

    const context = await browser.newContext();
    contexts.push(context);
    const { page, errors } = await watchedPage(context);
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await page.goto(`${baseUrl}/`, { waitUntil: 'networkidle' });
    expect(requested.filter((p) => p.endsWith('.js')).length).toBeGreaterThan(0);
    expect(requested.filter((p) => p.includes('hls'))).toEqual([]);

    await page.goto(lessonUrl(lessons.welcome));
    await page.getByRole('heading', { level: 1, name: 'Welcome' }).waitFor();
    await page.getByRole('button', { name: 'Play from 0:03' }).click();
    await waitUntilPlaying(page, 3.5);
    expect(requested).toContain(lightChunk);
    expect(requested).toContain(worker);
    expect(requested.some((p) => /^\/media\/videos\/[^/]+\/360p\/seg-\d{5}\.ts$/.test(p))).toBe(true);
    // A visitor's place is nobody's to keep: no write, and the page asks them to sign in.
    await page.getByRole('link', { name: 'Sign in' }).first().waitFor();
    expect(errors.filter((e) => !/401/.test(e))).toEqual([]);
  });

  it('plays a paid lesson for its owner at their speed, with captions in their language and the transcript', async () => {
    const context = await ownerContext();
    const { page, errors } = await watchedPage(context);
    await page.goto(lessonUrl(lessons.deepDive));
    await page.getByRole('heading', { level: 1, name: 'Deep dive' }).waitFor();
    const loading = page.getByRole('status').filter({ hasText: 'Loading the video…' });
    await expect.poll(async () => (await videoState(page)).readyState).toBeGreaterThanOrEqual(2);
    await loading.waitFor({ state: 'detached' });

    const state = await videoState(page);
    expect(state.playbackRate).toBe(1.5); // the learner's setting
    expect(state.currentTime).toBe(0);
    expect(Math.abs(state.duration - SECONDS)).toBeLessThan(0.5);
    // Both caption files as tracks; the browser speaks English (en-US), so the English ones show.
    expect(state.tracks).toEqual([
      { language: 'en', label: 'English', mode: 'showing' },
      { language: 'fr', label: 'Français', mode: 'disabled' },
    ]);
    // Findable with the browser's find (window.find is Chromium's, not typed).
    expect(await page.evaluate<boolean>(`window.find('Type parameters name what varies')`)).toBe(true);

    // By keyboard: a time in the transcript plays from there.
    const transcript = page.getByRole('region', { name: 'Transcript, English' });
    await transcript.getByRole('button', { name: 'Play from 0:03' }).focus();
    await page.keyboard.press('Enter');
    await waitUntilPlaying(page, 3.5);
    await expect
      .poll(() => transcript.locator('[aria-current="time"]').textContent())
      .toMatch(/Generics and you|Type parameters/);

    // Stopped half way: the place is saved.
    await expect.poll(async () => (await videoState(page)).currentTime).toBeGreaterThan(5);
    await page.evaluate(() => document.querySelector('video')!.pause());
    const stoppedAt = (await videoState(page)).currentTime;
    await expect.poll(savedPosition).toBe(Math.round(stoppedAt * 100) * 10);

    await page.getByRole('combobox', { name: 'Language' }).selectOption('fr');
    await page.getByRole('region', { name: 'Transcript, Français' }).getByText('Les génériques et vous.').waitFor();
    await checkScreen(page, 'storefront-lesson-video', { axe: true });
    expect(errors).toEqual([]);
  });

  it('resumes on another device where the learner stopped, and completes the lesson at 90 %', async () => {
    const saved = (await savedPosition())! / 1000;
    const context = await ownerContext();
    const { page, errors } = await watchedPage(context);
    await page.goto(lessonUrl(lessons.deepDive));
    await expect.poll(async () => (await videoState(page)).readyState).toBeGreaterThanOrEqual(1);
    await expect.poll(async () => (await videoState(page)).currentTime).toBeCloseTo(saved, 1);
    expect((await videoState(page)).paused).toBe(true);

    const outline = page.getByRole('navigation', { name: 'Course outline' });
    const item = outline.locator('.outline-lesson').filter({ hasText: 'Deep dive' });
    // Coming soon's video is still being prepared, its length unknown: lessons are counted, never a partial sum of
    // minutes (docs/domain.md §11).
    await outline.getByText(/^Lesson 2 of 4 · 4 lessons left$/).waitFor();
    expect(await item.textContent()).toMatch(/Deep dive1\smin$/);
    expect(await item.getByText('Not completed yet').count()).toBe(1);

    await page.evaluate((seconds) => (document.querySelector('video')!.currentTime = seconds), SECONDS * 0.92);
    await item.getByText('Completed').waitFor();
    await outline.getByText(/^Lesson 2 of 4 · 3 lessons left$/).waitFor();
    await page.getByRole('button', { name: 'Mark incomplete' }).waitFor();
    const progress = await database()
      .db('lessonProgress')
      .where({ userId: owner.id, lessonId: lessons.deepDive.id })
      .first();
    expect(progress.completedAt).not.toBeNull();
    expect(errors).toEqual([]);
  });

  it('shows each lesson’s minutes on the course page, and a video still being prepared, then ready', async () => {
    const context = await ownerContext();
    const { page, errors } = await watchedPage(context);
    await page.goto(`${baseUrl}/courses/${courseSlug}`);
    // One lesson of unknown length (its video being prepared): the lessons left, not a partial sum of minutes.
    await page.getByText(/^3 lessons left$/).waitFor();
    const rows = page.locator('.lesson-list li');
    expect(await rows.allTextContents()).toEqual([
      expect.stringMatching(/Welcome.*1\smin$/),
      expect.stringMatching(/Deep dive.*1\smin$/),
      expect.stringMatching(/Reading.*7\smin$/),
      expect.stringMatching(/Coming soon$/),
    ]);
    await checkScreen(page, 'storefront-course-minutes');

    await page.getByRole('link', { name: 'Coming soon' }).click();
    await page.getByText('This video is being prepared: come back in a few minutes.').waitFor();
    expect(await page.locator('video').count()).toBe(0);
    await checkScreen(page, 'storefront-lesson-video-preparing', { axe: true });
    await services.jobs.runDue(PROCESS_VIDEO_JOB);
    await page.getByRole('button', { name: 'Check again' }).click();
    await expect.poll(async () => (await videoState(page)).readyState).toBeGreaterThanOrEqual(1);
    // Every lesson's length known now: the course page gives the minutes left.
    await page.goto(`${baseUrl}/courses/${courseSlug}`);
    await page.getByText(/^\d+\smin left$/).waitFor();
    expect(errors).toEqual([]);
  });

  it('plays the next lesson’s video when one ends, for a learner who asked for it in Settings', async () => {
    await database()
      .db('userPrefs')
      .where({ userId: owner.id, type: 'global' })
      .update({ fields: { video: { playbackRate: 1.5, autoplayNext: true } } });
    const context = await ownerContext();
    const { page, errors } = await watchedPage(context);
    await page.goto(lessonUrl(lessons.welcome));
    await page.getByRole('heading', { level: 1, name: 'Welcome' }).waitFor();
    await page.getByRole('button', { name: 'Play from 0:09' }).click();
    // The last 3 s at 1.5×: Welcome ends (and completes), then Deep dive opens and plays, from its start (its saved
    // place was at the very end).
    await page.getByRole('heading', { level: 1, name: 'Deep dive' }).waitFor();
    await waitUntilPlaying(page, 0.5);
    const outline = page.getByRole('navigation', { name: 'Course outline' });
    await outline.locator('.outline-lesson').filter({ hasText: 'Welcome' }).getByText('Completed').waitFor();
    expect(errors).toEqual([]);
  });

  it('says when the video cannot play, and plays after Try again', async () => {
    const context = await ownerContext();
    const { page } = await watchedPage(context);
    // Every segment of every rendition refused (as a link that expired would be: the player may pick any), even after
    // the player asks for fresh links once.
    await page.route('**/media/videos/*/*p/seg-*.ts', (route) => route.fulfill({ status: 403, body: '' }));
    await page.goto(lessonUrl(lessons.welcome));
    const failed = page.getByRole('alert').filter({ hasText: 'This video could not play.' });
    await failed.waitFor({ timeout: 30_000 });
    expect(await failed.getByRole('button', { name: 'Try again' }).count()).toBe(1);
    await page.unroute('**/media/videos/*/*p/seg-*.ts');
    // The fresh links held back, so the transcript's line is chosen while the player is still loading, before the
    // new source is attached: it plays from there once that has loaded (attaching cuts short a play asked for before).
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/api/store/courses/*/lessons/${lessons.welcome.id}`, async (route) => {
      await held;
      await route.continue();
    });
    await failed.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('status').filter({ hasText: 'Loading the video…' }).waitFor();
    expect(await failed.count()).toBe(0);
    await page.getByRole('button', { name: 'Play from 0:06' }).click();
    release();
    await waitUntilPlaying(page, 6.5);
  });

  it('refuses the owner’s video to a learner without access: the locked page, and 403 for their playlist', async () => {
    const db = database().db;
    const session = await sessions({ db, clock: { now: () => new Date() } }).create(db, owner.id, 'api', 'email');
    const answer = await fetch(`${baseUrl}/api/store/courses/${courseSlug}/lessons/${lessons.deepDive.id}`, {
      headers: { Cookie: `lp_session=${session.token}` },
    });
    const hls = ((await answer.json()) as { video: { hls: string } }).video.hls;
    expect(hls).toMatch(/^\/media\/videos\/[^/]+\/master\.m3u8$/);

    const context = await signedInContext(browser, baseUrl, db, ['learner']);
    contexts.push(context);
    const { page } = await watchedPage(context);
    await page.goto(lessonUrl(lessons.deepDive));
    await page.getByRole('heading', { level: 1, name: 'Deep dive' }).waitFor();
    await page.getByRole('link', { name: /Buy/ }).first().waitFor();
    expect(await page.locator('video').count()).toBe(0);
    expect(await page.getByText('Type parameters name what varies').count()).toBe(0);
    const refused = await page.evaluate(async (url) => {
      const response = await fetch(url);
      return { status: response.status, body: (await response.json()) as { code: string } };
    }, hls);
    expect(refused).toMatchObject({ status: 403, body: { code: 'media-not-yours' } });
  });
});
