import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { ContentResource } from '../support/models';
import { LessonVideo } from '../../api/src/video/models';
import { runSeeds } from '../../seeds/run';
import { testConfig, testDeps } from '../support/app';
import { signedInByEmail } from '../support/auth';
import { checkScreen, contextFor, CONSOLE_WIDTHS, keepScreenshot, launchChromium } from '../support/browser';
import { useTestDatabase } from '../support/db';

/*
 * Lesson videos in the console (issue 18): a video made here with ffmpeg, uploaded on a lesson's edit page over tus
 * (through a dropped connection), processed by the real job in the test's server (the upload wakes it), captioned;
 * a text file dropped on another lesson fails with the reason and offers Retry; the videos list shows both.
 */

const run = promisify(execFile);

const CAPTIONS = `WEBVTT

00:00:00.000 --> 00:00:01.500
Welcome to the video lesson.

00:00:01.500 --> 00:00:03.000
Types name what a value may be.
`;

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's serious and critical violations inside `selector` (the video panel, the videos list). Only there: the
 * rest of the console's pages (react-admin's app bar and toolbars) is not this test's, and no console test checks it.
 */
async function violationsIn(page: Page, selector: string): Promise<string[]> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(`axe.run(${JSON.stringify(selector)}, { resultTypes: ['violations'] }).then((result) =>
    result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.id + ': ' + v.help + ' at ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`);
}

/** A screen at 1280 and 390 px (no sideways scroll; screenshots), with no serious axe violation in `selector`. */
async function checkPart(page: Page, name: string, selector = '.video-panel'): Promise<void> {
  await checkScreen(page, name);
  expect(await violationsIn(page, selector), name).toEqual([]);
}

/** A request held by the test until it lets it go. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('lesson videos in the console (Chromium)', { timeout: 180_000 }, () => {
  const database = useTestDatabase();
  let folder: string;
  let videoFile: string;
  /** While this file is missing, ffprobe waits: the video stays "processing" until the test has seen it so. */
  let probeGate: string;
  let baseUrl: string;
  let close: () => Promise<void>;
  let browser: Browser;
  let page: Page;

  const db = () => database().db;
  const lessonTitled = async (title: string) =>
    (await ContentResource.query(db()).where('type', 'lesson').whereRaw("fields->>'title' = ?", [title]).first())!;
  const panel = () => page.getByRole('region', { name: 'Video', exact: true });

  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'lp-e2e-video-'));
    await runSeeds(db(), { demo: true });
    videoFile = path.join(folder, 'primitive-types.mp4');
    // Three seconds of a 720p test pattern with a tone: processing makes 360p and 720p.
    await run('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', 'testsrc=size=1280x720:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440'],
      ...['-t', '3', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', videoFile],
    ]);
    probeGate = path.join(folder, 'probe-may-run');
    const probe = path.join(folder, 'ffprobe-gated');
    await writeFile(probe, `#!/bin/sh\nwhile [ ! -e '${probeGate}' ]; do sleep 0.05; done\nexec ffprobe "$@"\n`);
    await chmod(probe, 0o755);

    // The whole product on a loopback port; the upload wakes the processing job in this process.
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const config = testConfig({ PUBLIC_URL: baseUrl, MEDIA_DIR: path.join(folder, 'media'), FFPROBE_PATH: probe });
    server.on('request', createApp(testDeps(db(), { config })).callback());
    close = () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });

    browser = await launchChromium();
    // The demo course's author: contributors change only the content they created, its videos included.
    const author = await signedInByEmail(db(), 'contributor@example.com');
    const context = await contextFor(browser, baseUrl, author);
    page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
  });
  afterAll(async () => {
    await browser?.close();
    await close?.();
    await rm(folder, { recursive: true, force: true });
  });

  it('uploads a video on the lesson’s edit page, resuming after a dropped connection, and sees it processed', async () => {
    const lesson = await lessonTitled('Primitive types');

    // The first PATCH is cut off; the HEAD that asks how far it got, and the PATCH after it, wait for the test.
    const methods: string[] = [];
    const asking = gate();
    const sending = gate();
    await page.route('**/api/admin/uploads/videos**', async (route: Route) => {
      const method = route.request().method();
      methods.push(method);
      if (method === 'PATCH' && methods.filter((m) => m === 'PATCH').length === 1) {
        await route.abort('connectionreset');
        return;
      }
      if (method === 'HEAD') await asking.opened;
      if (method === 'PATCH') await sending.opened;
      await route.continue();
    });

    await page.goto(`${baseUrl}/admin/#/content-resources/${lesson.id}`);
    await panel().getByText('This lesson has no video yet.').waitFor();
    expect(await panel().getByRole('heading', { name: 'Video' }).count()).toBe(1);
    await checkPart(page, 'console-video-empty');

    await panel().getByLabel('Choose a video file').setInputFiles(videoFile);
    const progress = panel().getByRole('progressbar', { name: 'Uploading primitive-types.mp4' });
    await progress.waitFor();
    await panel().getByText('Connection lost: trying again…').waitFor();
    asking.open();
    // Sending the rest: the bar at 0 %, the sizes (a file this small in KB; MB and GB for real ones).
    await expect.poll(() => progress.getAttribute('aria-valuenow')).toBe('0');
    await panel()
      .getByText(/^0 % · 0 KB of \d+ KB$/)
      .waitFor();
    await panel().getByRole('button', { name: 'Cancel' }).waitFor();
    await keepScreenshot(page, 'console-video-uploading-1280');
    sending.open();

    await page.getByText('Video uploaded. Processing starts shortly.').waitFor();
    expect(methods.slice(0, 4)).toEqual(['POST', 'PATCH', 'HEAD', 'PATCH']);
    await page.unroute('**/api/admin/uploads/videos**');
    const video = (await LessonVideo.query(db()).findOne({ lessonId: lesson.id }))!;
    expect(video).toMatchObject({ sourceName: 'primitive-types.mp4', version: 1 });
    // Processing (its probe held until seen), then ready, by polling: no reload.
    await panel().getByText('Processing 0 %', { exact: true }).waitFor();
    const processing = panel().getByRole('progressbar', { name: 'Processing progress' });
    expect(await processing.getAttribute('aria-valuenow')).toBe('0');
    await keepScreenshot(page, 'console-video-processing-1280');
    await writeFile(probeGate, '');
    await panel().getByText('Ready', { exact: true }).waitFor({ timeout: 90_000 });
    await panel().getByText('360p · 720p').waitFor();
    await panel().getByText('0:03', { exact: true }).waitFor();
    await panel().getByText('1280 × 720').waitFor();
    const poster = panel().getByRole('img', { name: 'Poster of “Primitive types”' });
    await expect
      .poll(() => poster.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
    expect(await panel().getByRole('button', { name: 'Retry' }).count()).toBe(0);
    await checkPart(page, 'console-video-ready'); // it waits for the page to stop moving
  });

  it('adds captions from a .vtt file (a broken one is refused on the field, saying the line) and removes them', async () => {
    const lesson = await lessonTitled('Primitive types');
    const video = (await LessonVideo.query(db()).findOne({ lessonId: lesson.id }))!;
    await panel().getByText('No captions yet.').waitFor();

    const broken = path.join(folder, 'broken.vtt');
    await writeFile(broken, 'WEBVTT\n\n00:00.000 --> 00:01.000\nfine\n\n00:02.000 --> soon\nbroken\n');
    await panel().getByRole('textbox', { name: 'Language' }).fill('en');
    await panel().getByRole('textbox', { name: 'Label' }).fill('English');
    await panel().getByLabel('Choose a .vtt file').setInputFiles(broken);
    await panel().getByText('broken.vtt').waitFor();
    await panel().getByRole('button', { name: 'Add captions' }).click();
    await panel().getByText('line 6: "soon" is not a time like 00:04.000').waitFor();
    expect(await panel().getByLabel('Choose a .vtt file').getAttribute('aria-invalid')).toBe('true');

    const english = path.join(folder, 'english.vtt');
    await writeFile(english, CAPTIONS);
    await panel().getByLabel('Choose a .vtt file').setInputFiles(english);
    await panel().getByRole('button', { name: 'Add captions' }).click();
    await page.getByText('Captions added: English.').waitFor();
    const table = panel().getByRole('table', { name: 'Captions' });
    const row = table.getByRole('row').filter({ hasText: 'English' });
    await row.waitFor();
    expect(await row.getByRole('cell').allInnerTexts()).toEqual(['en', 'English', '2', expect.any(String)]);
    expect(await db()('videoCaptions').where({ videoId: video.id }).select('language', 'label')).toEqual([
      { language: 'en', label: 'English' },
    ]);
    // The form is empty again for the next language.
    expect(await panel().getByRole('textbox', { name: 'Language' }).inputValue()).toBe('');
    await checkPart(page, 'console-video-captions');

    // A second language, then the first removed.
    await panel().getByRole('textbox', { name: 'Language' }).fill('pt-BR');
    await panel().getByRole('textbox', { name: 'Label' }).fill('Português');
    await panel().getByLabel('Choose a .vtt file').setInputFiles(english);
    await panel().getByRole('button', { name: 'Add captions' }).click();
    await table.getByRole('row').filter({ hasText: 'Português' }).waitFor();
    await panel().getByRole('button', { name: 'Remove the English captions' }).click();
    await page.getByText('Captions removed: English.').waitFor();
    await row.waitFor({ state: 'detached' });
    expect(await db()('videoCaptions').where({ videoId: video.id }).pluck('language')).toEqual(['pt-BR']);
  });

  it('cancels an upload under way: it is dropped on the server, and the lesson still has no video', async () => {
    const lesson = await lessonTitled('Welcome');
    const methods: string[] = [];
    const held = gate();
    await page.route('**/api/admin/uploads/videos**', async (route: Route) => {
      methods.push(route.request().method());
      if (route.request().method() === 'PATCH') await held.opened;
      await route.continue().catch(() => undefined); // the held PATCH was given up by then
    });
    await page.goto(`${baseUrl}/admin/#/content-resources/${lesson.id}`);
    await panel().getByLabel('Choose a video file').setInputFiles(videoFile);
    await panel().getByRole('progressbar', { name: 'Uploading primitive-types.mp4' }).waitFor();
    await expect.poll(() => methods).toEqual(['POST', 'PATCH']);
    await panel().getByRole('button', { name: 'Cancel' }).click();
    await panel().getByLabel('Choose a video file').waitFor({ state: 'attached' });
    await expect.poll(() => methods).toEqual(['POST', 'PATCH', 'DELETE']);
    held.open();
    await page.unroute('**/api/admin/uploads/videos**');
    expect(await panel().getByText('This lesson has no video yet.').count()).toBe(1);
    expect(await LessonVideo.query(db()).findOne({ lessonId: lesson.id })).toBeUndefined();
  });

  it('fails a dropped text file with the reason, offers Retry, and lists both videos with a status filter', async () => {
    const lesson = await lessonTitled('Welcome');
    await page.goto(`${baseUrl}/admin/#/content-resources/${lesson.id}`);
    await panel().getByText('This lesson has no video yet.').waitFor();

    // Dropped, as from a file manager: any file goes; the server says whether it is a video. Text saved under a
    // video's name (ffmpeg would read a .txt as a video of its text: its tty demuxer).
    const dataTransfer = await page.evaluateHandle(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['These are my lecture notes, not a video.\n'.repeat(40)], 'notes.mp4'));
      return transfer;
    });
    await panel().getByTestId('video-drop-zone').dispatchEvent('dragover', { dataTransfer });
    await panel().getByTestId('video-drop-zone').dispatchEvent('drop', { dataTransfer });
    await panel().getByText('Failed', { exact: true }).waitFor({ timeout: 60_000 });
    const reason = panel().getByRole('alert');
    await expect
      .poll(() => reason.innerText())
      .toMatch(/^Processing failed: the uploaded file is not a video ffmpeg can read \(notes\.mp4: .+\)/);
    await checkPart(page, 'console-video-failed');

    // Retry: queued again, and it fails again as clearly (the same file).
    const failed = (await LessonVideo.query(db()).findOne({ lessonId: lesson.id }))!;
    await reason.getByRole('button', { name: 'Retry' }).click();
    await page.getByText('The video is queued for processing again.').waitFor();
    await expect
      .poll(async () =>
        (await db()('auditLogs').where({ resource: 'videos', recordId: failed.id }).pluck('action')).sort(),
      )
      .toEqual(['retry', 'upload']);
    await panel().getByRole('button', { name: 'Retry' }).waitFor({ timeout: 60_000 });
    expect((await LessonVideo.query(db()).findById(failed.id))!.status).toBe('failed');

    // The list: each lesson linked, its state; the status filter narrows to the failed one.
    await page.goto(`${baseUrl}/admin/#/videos`);
    const rows = page.getByRole('row').filter({ has: page.getByRole('cell') });
    await rows.filter({ hasText: 'Primitive types' }).getByText('Ready').waitFor();
    await rows.filter({ hasText: 'Welcome' }).getByText('Failed').waitFor();
    expect(await rows.count()).toBe(2);
    await rows.filter({ hasText: 'Primitive types' }).getByText('0:03', { exact: true }).waitFor();
    await checkPart(page, 'console-videos-list', '.RaList-content');
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Failed' }).click();
    await expect.poll(() => rows.count()).toBe(1);
    await rows.filter({ hasText: 'Welcome' }).waitFor();

    // A row opens the video's page, the same panel; the lesson's link opens its edit page.
    await rows.filter({ hasText: 'Welcome' }).getByText('Failed').click();
    await page.waitForURL(new RegExp(`#/videos/${failed.id}/show`));
    await panel().getByRole('button', { name: 'Retry' }).waitFor();
    await page.getByRole('link', { name: 'Edit the lesson' }).click();
    await page.waitForURL(new RegExp(`#/content-resources/${lesson.id}$`));
    // The address changes at once, but the video's page stays on screen until the edit page's code has loaded: its
    // own Remove would lead back to the videos list. The edit page's panel says that its writes need no Save.
    await panel().getByText('Save is not needed', { exact: false }).waitFor();

    // Remove video, confirmed: the lesson has none again.
    await panel().getByRole('button', { name: 'Remove video' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove the video?' });
    await dialog.getByText('Remove the video of “Welcome”?').waitFor();
    await dialog.getByRole('button', { name: 'Remove video' }).click();
    await page.getByText('Video removed.').waitFor();
    // Still the lesson's page, its panel saying so and in reach of assistive technology (no dialog's aria-hidden left
    // over); read as one state, so that a failure says which part is wrong.
    const shown = `({
      at: location.hash,
      panel: document.querySelector('.video-panel')?.innerText ?? null,
      hidden: Boolean(document.querySelector('.video-panel')?.closest('[aria-hidden="true"]')),
    })`;
    await expect
      .poll(() => page.evaluate<{ at: string; panel: string | null; hidden: boolean }>(shown))
      .toEqual({
        at: `#/content-resources/${lesson.id}`,
        panel: expect.stringContaining('This lesson has no video yet.'),
        hidden: false,
      });
    expect(await LessonVideo.query(db()).findById(failed.id)).toBeUndefined();
  });

  it('refuses a dropped HLS playlist that names a file on the server, saying so at 1440 and 1024 px', async () => {
    await writeFile(probeGate, ''); // nothing to hold here
    const lesson = await lessonTitled('Union types');
    await page.goto(`${baseUrl}/admin/#/content-resources/${lesson.id}`);
    await panel().getByText('This lesson has no video yet.').waitFor();
    const dataTransfer = await page.evaluateHandle(() => {
      const transfer = new DataTransfer();
      const playlist =
        '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\nfile:///proc/self/cwd/.data/media/videos/x/v1/360p/index.m3u8\n';
      transfer.items.add(new File([playlist], 'union-types.m3u8'));
      return transfer;
    });
    await panel().getByTestId('video-drop-zone').dispatchEvent('dragover', { dataTransfer });
    await panel().getByTestId('video-drop-zone').dispatchEvent('drop', { dataTransfer });
    await panel().getByText('Failed', { exact: true }).waitFor({ timeout: 60_000 });
    await expect
      .poll(() => panel().getByRole('alert').innerText())
      .toMatch(
        /^Processing failed: the uploaded file is a playlist or manifest \(union-types\.m3u8\), not a video: the files it names are not read; upload the lesson's video file itself/,
      );
    await checkScreen(page, 'console-video-playlist-refused', { widths: CONSOLE_WIDTHS });
    expect(await LessonVideo.query(db()).findOne({ lessonId: lesson.id })).toMatchObject({
      status: 'failed',
      errorCode: 'video-playlist-refused',
      hlsKey: null,
    });
  });
});
