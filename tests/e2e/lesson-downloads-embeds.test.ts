import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { EMBED_FRAME_SOURCES } from '../../api/src/shared/embeds';
import { createProduct, createPurchase, createResource, linkResource } from '../../seeds/factories';
import { signedIn, type SignedIn } from '../support/auth';
import {
  checkScreen,
  CONSOLE_WIDTHS,
  contextFor,
  seriousViolations,
  STOREFRONT_WIDTHS,
  useDemoSite,
} from '../support/browser';
import type { ContentResource } from '../support/models';

const PDF = Buffer.from('%PDF-1.7\n% slides of the lesson\n%%EOF\n');
const SLIDES = 'पाठ १ स्लाइड.pdf';
const SANDBOX = 'https://codesandbox.io/embed/react-new';
/** What the sandbox's host answers in the test: the machine has no way out, and the frame still loads a page. */
const SANDBOX_PAGE =
  '<!doctype html><html lang="en"><title>Sandbox</title><main><h1>Sandbox stand-in</h1></main></html>';

// Lesson downloads and embeds (docs/domain.md §11), in Chromium at the storefront's widths: a learner who holds the
// course downloads a file named in Devanagari from the lesson's Downloads, and the body's CodeSandbox embed is
// sandboxed, lazy and titled while the hostile frames next to it never reach the page; the console adds a file.
describe('lesson downloads and embeds, in Chromium', () => {
  let lesson: ContentResource;
  let course: ContentResource;
  let learner: SignedIn;
  let support: SignedIn;
  const site = useDemoSite(async (db) => {
    const product = await createProduct(db, { name: 'Sandboxed React', unitAmount: 3900 });
    course = await createResource(db, 'course', { title: 'Sandboxed React' });
    const module = await createResource(db, 'module', { title: 'Week one' });
    await linkResource(db, course, module, 0);
    const intro = await createResource(db, 'lesson', { title: 'Welcome', body: '<p>Welcome</p>' });
    await linkResource(db, module, intro, 0);
    lesson = await createResource(db, 'lesson', {
      title: 'State in a sandbox',
      body: [
        '<p>Try it here.</p>',
        `<iframe src="${SANDBOX}" title="Counter sandbox" onload="alert(1)" width="10"></iframe>`,
        '<iframe src="https://youtube.com.evil.io/embed/dQw4w9WgXcQ" title="Look-alike"></iframe>',
        '<iframe srcdoc="<script>alert(1)</script>" title="Inline"></iframe>',
        '<iframe src="javascript:alert(1)" title="Script"></iframe>',
      ].join(''),
    });
    await linkResource(db, module, lesson, 1);
    await db('productContentResources').insert({ productId: product.id, resourceId: course.id, position: 0 });
    learner = await signedIn(db, ['learner'], 'downloads-learner@example.com');
    await createPurchase(db, { user: learner.user, product });
    support = await signedIn(db, ['support'], 'downloads-support@example.com');
  });

  /** Uploads a file to the lesson as support does from the console, through the API. */
  async function attach(bytes: Buffer, name: string) {
    const { baseUrl } = site();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), name);
    const response = await fetch(`${baseUrl}/api/admin/lessons/${lesson.id}/attachments`, {
      method: 'POST',
      headers: { Cookie: support.cookie, 'X-CSRF-Token': support.csrfToken },
      body: form,
    });
    expect(response.status).toBe(201);
  }

  it('downloads a file in any script and shows the embed sandboxed, at 1280 and 390 px', async () => {
    const { browser, baseUrl } = site();
    await attach(PDF, SLIDES);
    const context = await contextFor(browser, baseUrl, learner);
    await context.route('https://codesandbox.io/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: SANDBOX_PAGE }),
    );
    const page = await context.newPage();
    const opened = await page.goto(`${baseUrl}/courses/${course.fields.slug}/lessons/${lesson.fields.slug}`);
    expect(opened!.headers()['content-security-policy']).toContain(
      `frame-src ${["'self'", ...EMBED_FRAME_SOURCES].join(' ')};`,
    );

    const downloads = page.getByRole('region', { name: 'Downloads' });
    const link = downloads.getByRole('link', { name: SLIDES });
    await link.waitFor();
    expect(await downloads.getByText('PDF, 1 KB').count()).toBe(1);

    const frames = page.locator('.lesson-body iframe');
    await expect.poll(() => frames.count()).toBe(1);
    const frame = frames.first();
    expect(await frame.getAttribute('src')).toBe(SANDBOX);
    expect(await frame.getAttribute('title')).toBe('Counter sandbox');
    expect(await frame.getAttribute('loading')).toBe('lazy');
    expect(await frame.getAttribute('sandbox')).toBe(
      'allow-scripts allow-same-origin allow-forms allow-modals allow-popups allow-downloads',
    );
    expect(await frame.getAttribute('onload')).toBeNull();
    const html = await page.content();
    for (const hostile of ['evil.io', 'srcdoc', 'javascript:', 'alert(1)']) expect(html).not.toContain(hostile);

    for (const [width, height] of STOREFRONT_WIDTHS) {
      await page.setViewportSize({ width, height });
      await frame.scrollIntoViewIfNeeded();
      await expect
        .poll(() => frame.boundingBox().then((box) => Math.round(box?.width ?? 0)))
        .toBeLessThanOrEqual(width);
      const started = page.waitForEvent('download');
      await link.click();
      const download = await started;
      expect(download.suggestedFilename()).toBe(SLIDES);
      expect(await readFile((await download.path())!)).toEqual(PDF);
    }
    await checkScreen(page, 'lesson-downloads-embed', { axe: true });
    await context.close();
  });

  it('refuses the link to someone else, with a page that says why', async () => {
    const { browser, baseUrl } = site();
    const context = await contextFor(browser, baseUrl, learner);
    const page = await context.newPage();
    await page.goto(`${baseUrl}/courses/${course.fields.slug}/lessons/${lesson.fields.slug}`);
    const href = await page.getByRole('region', { name: 'Downloads' }).getByRole('link').first().getAttribute('href');
    await context.close();

    const stranger = await browser.newContext();
    const other = await stranger.newPage();
    const refused = await other.goto(`${baseUrl}${href}`);
    expect(refused!.status()).toBe(403);
    await other.getByRole('heading', { name: 'This download link cannot be used' }).waitFor();
    expect(await other.getByText('download-not-yours').count()).toBe(1);
    await stranger.close();
  });

  it("says when the lesson's files could not be loaded, and Try again lists them", async () => {
    const { browser, baseUrl } = site();
    const context = await contextFor(browser, baseUrl, learner);
    const page = await context.newPage();
    let failing = true;
    await page.route('**/api/store/lessons/*/attachments?*', (route) =>
      failing
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({ code: 'service-unavailable', message: 'The service is busy.' }),
          })
        : route.continue(),
    );
    await page.goto(`${baseUrl}/courses/${course.fields.slug}/lessons/${lesson.fields.slug}`);
    const downloads = page.getByRole('region', { name: 'Downloads' });
    const alert = downloads.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain("We could not load the lesson's files");
    expect(await downloads.getByRole('link').count()).toBe(0);

    failing = false;
    await alert.getByRole('button', { name: 'Try again' }).click();
    await downloads.getByRole('link', { name: SLIDES }).waitFor();
    expect(await downloads.getByRole('alert').count()).toBe(0);
    await context.close();
  });

  it('adds a file in the console with a progress bar, moves and deletes it', async () => {
    const { browser, baseUrl } = site();
    const context = await contextFor(browser, baseUrl, support);
    const page = await context.newPage();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/admin/lessons/*/attachments', async (route) => {
      if (route.request().method() === 'POST') await held;
      await route.continue();
    });
    await page.goto(`${baseUrl}/admin/#/content-resources/${lesson.id}`);
    const panel = page.getByRole('region', { name: 'Files to download' });
    await panel.getByRole('list', { name: 'Files to download' }).waitFor();

    await panel
      .getByLabel('Add a file')
      .setInputFiles({ name: 'solution.ts', mimeType: 'text/plain', buffer: Buffer.from('export {};\n') });
    await panel.getByRole('progressbar', { name: 'Uploading solution.ts' }).waitFor();
    release();
    const rows = panel.getByRole('listitem');
    await expect
      .poll(() => rows.allTextContents())
      .toEqual([expect.stringContaining(SLIDES), expect.stringContaining('solution.ts')]);
    await checkScreen(page, 'console-lesson-downloads', { widths: CONSOLE_WIDTHS });
    expect(await seriousViolations(page, '.lesson-attachments-panel')).toEqual([]);

    await panel.getByRole('button', { name: 'Move solution.ts up' }).click();
    await expect
      .poll(() => rows.allTextContents())
      .toEqual([expect.stringContaining('solution.ts'), expect.stringContaining(SLIDES)]);
    await panel.getByRole('button', { name: 'Delete solution.ts' }).click();
    await expect.poll(() => rows.count()).toBe(1);
    await context.close();
  });
  it('embeds from the editor only what the list allows, and the stored body keeps it sandboxed', async () => {
    const { browser, baseUrl, db } = site();
    const context = await contextFor(browser, baseUrl, support);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${baseUrl}/admin/#/content-resources/${lesson.id}`);
    await page.getByRole('textbox', { name: 'Body' }).waitFor();
    // The stored sandbox is a card in the editor; the hostile frames beside it are not read in at all.
    await page.getByRole('img', { name: 'Embedded CodeSandbox: Counter sandbox' }).waitFor();
    expect(await page.locator('.ProseMirror iframe').count()).toBe(0);

    await page.getByRole('button', { name: 'Embed a video, sandbox or slides' }).click();
    const dialog = page.getByRole('dialog', { name: 'Embed' });
    await dialog.getByRole('textbox', { name: /^Link/ }).fill('https://youtube.com.evil.io/watch?v=dQw4w9WgXcQ');
    await dialog.getByRole('textbox', { name: /^Title/ }).fill('Look-alike');
    await dialog.getByRole('button', { name: 'Embed', exact: true }).click();
    await dialog.getByText('Only YouTube, Vimeo, CodeSandbox, StackBlitz and Google Slides can be embedded').waitFor();
    await dialog.getByRole('textbox', { name: /^Link/ }).fill('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    await dialog.getByRole('textbox', { name: /^Title/ }).fill('Why state matters');
    await dialog.getByRole('button', { name: 'Embed', exact: true }).click();
    await page.getByRole('img', { name: 'Embedded YouTube: Why state matters' }).waitFor();

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const stored = async () =>
      ((await db('contentResources').where({ id: lesson.id }).first('fields')) as { fields: { body: string } }).fields
        .body;
    await expect.poll(stored, { timeout: 10_000 }).toContain('youtube-nocookie');
    const body = await stored();
    expect(body).toContain('src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"');
    expect(body).toContain('title="Why state matters"');
    expect(body).toContain(`src="${SANDBOX}"`);
    expect(body.match(/loading="lazy"/g)).toHaveLength(2);
    for (const hostile of ['evil.io', 'srcdoc', 'javascript:']) expect(body).not.toContain(hostile);
    await page.waitForURL((url) => url.hash === `#/content-resources/${lesson.id}/show`);
    // The console's pages frame no other site: its show page names each embed instead.
    await page.locator('.rich-text-body').getByText('Embedded YouTube: Why state matters').waitFor();
    expect(await page.locator('.rich-text-body iframe').count()).toBe(0);
    await context.close();
  });
});
