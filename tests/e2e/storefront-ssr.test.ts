import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../api/src/config';
import { ContentResource, Product, User } from '../support/models';
import { createPurchase } from '../../seeds/factories';
import { checkScreen, signedInContext, useDemoSite } from '../support/browser';

/*
 * Server-rendered public pages (issue 17, point 1): the content is in the HTML before any script runs, and the same
 * React components take it over (hydrate) without an error, a second request for its data, or a loading line over it.
 */

const PRODUCT_PATH = '/products/typescript-fundamentals';

/** What a page's console and uncaught errors said, kept from before its first script. */
function watchConsole(page: Page): string[] {
  const said: string[] = [];
  page.on('console', (message) => {
    // A signed-out visitor's "who am I" answers 401, which the browser reports: that is how the session is asked.
    if (/Failed to load resource: .* 401/.test(message.text())) return;
    if (message.type() === 'error' || message.type() === 'warning') said.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => said.push(`pageerror: ${error.message}`));
  return said;
}

/**
 * Records, from before the page's scripts run, every loading line ever shown ("Loading the course…", "Loading the
 * page…"): a server-rendered page must not flash one over its content while it hydrates.
 */
async function recordLoadingLines(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { loadingLines: string[] }).loadingLines = seen;
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          if (node instanceof HTMLElement && node.matches('.loading, .loading *')) seen.push(node.textContent ?? '');
          if (node instanceof HTMLElement) {
            for (const inner of node.querySelectorAll('.loading')) seen.push(inner.textContent ?? '');
          }
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

/** The JavaScript a page's HTML loads before it can show (entry, its imports, the page's preloaded chunk), in gzip KB. */
async function initialJsKb(baseUrl: string, pagePath: string): Promise<number> {
  const html = await (await fetch(`${baseUrl}${pagePath}`)).text();
  const files = new Set(
    [...html.matchAll(/<(?:script type="module"[^>]*src|link rel="modulepreload"[^>]*href)="\/([^"]+\.js)"/g)].map(
      (m) => m[1]!,
    ),
  );
  let bytes = 0;
  for (const file of files) {
    bytes += gzipSync(await readFile(path.join(PROJECT_ROOT, 'storefront', 'dist', file)), { level: 9 }).length;
  }
  return Math.round((bytes / 1024) * 10) / 10;
}

describe('server-rendered storefront pages in Chromium', () => {
  const site = useDemoSite();

  it('shows a product page with JavaScript off, then hydrates it without errors, refetching or a loading flash', async () => {
    const { browser, baseUrl } = site();

    // No JavaScript: what search engines and link previews get is the page itself.
    const off = await browser.newContext({ javaScriptEnabled: false });
    const still = await off.newPage();
    await still.goto(`${baseUrl}${PRODUCT_PATH}`);
    await expect(still.title()).resolves.toBe('TypeScript Fundamentals — Typed Academy');
    await still.getByRole('heading', { level: 1, name: 'TypeScript Fundamentals' }).waitFor();
    expect(await still.getByRole('link', { name: 'Go to the course' }).count()).toBe(1);
    await checkScreen(still, 'ssr-product-no-js');
    await off.close();

    // JavaScript on: the same HTML, hydrated.
    const context = await browser.newContext();
    const page = await context.newPage();
    const said = watchConsole(page);
    await recordLoadingLines(page);
    const productLists: string[] = [];
    const whoAmI: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/store/products') productLists.push(r.url());
      if (new URL(r.url()).pathname === '/api/store/me') whoAmI.push(r.url());
    });
    await page.goto(`${baseUrl}${PRODUCT_PATH}`);
    await page.getByRole('heading', { level: 1, name: 'TypeScript Fundamentals' }).waitFor();
    // Hydrated: effects ran (the price is asked for and shown), and links navigate in the page.
    await page.getByRole('button', { name: /^Buy/ }).waitFor({ timeout: 20_000 });
    // The product page hydrated with the answers sent along: no product list asked for, no "Loading the course…"
    // (the price's own loading line is part of the server's HTML: the quote is the visitor's).
    const loadingLines = await page.evaluate(() => (window as unknown as { loadingLines: string[] }).loadingLines);
    expect(loadingLines.filter((line) => /Loading the (course|page)/.test(line))).toEqual([]);
    expect(productLists).toEqual([]);
    // A visitor without a session cookie is signed out without asking (no 401 in the console).
    expect(whoAmI).toEqual([]);

    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    await page.getByRole('link', { name: 'Go to the course' }).click();
    await page.getByRole('heading', { level: 1, name: 'TypeScript Fundamentals' }).waitFor();
    await page.waitForURL(/\/courses\//);
    await page.getByRole('heading', { name: 'Lessons' }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true); // no page load
    await page.goBack();
    await page.getByRole('button', { name: /^Buy/ }).waitFor({ timeout: 20_000 });
    expect(said).toEqual([]);
    await checkScreen(page, 'ssr-product-hydrated');
    await context.close();
  });

  it('hydrates the course outline and a free lesson; a signed-in learner then sees their own progress', async () => {
    const { browser, baseUrl, db } = site();
    const course = (await ContentResource.query(db)
      .where({ type: 'course' })
      .whereRaw(`fields->>'title' = ?`, ['TypeScript Fundamentals'])
      .first())!;
    const coursePath = `/courses/${course.fields.slug}`;

    const visitor = await browser.newContext();
    const page = await visitor.newPage();
    const said = watchConsole(page);
    await recordLoadingLines(page);
    await page.goto(`${baseUrl}${coursePath}`);
    await page.getByRole('link', { name: 'Welcome' }).waitFor();
    await page.getByRole('link', { name: 'Try a free lesson' }).click();
    await page.getByRole('heading', { level: 1, name: 'Welcome' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Welcome' }).waitFor();
    await page.getByRole('link', { name: 'Sign in' }).first().waitFor(); // the session was asked: hydrated
    const lines = await page.evaluate(() => (window as unknown as { loadingLines: string[] }).loadingLines);
    expect(lines.filter((line) => /Loading the (lesson|page)/.test(line))).toEqual([]);
    expect(said).toEqual([]);
    await checkScreen(page, 'ssr-free-lesson');
    await visitor.close();

    // A learner who owns the course: the page comes as a visitor's, then shows their progress (no hydration error).
    const email = 'ssr-learner@example.com';
    const context = await signedInContext(browser, baseUrl, db, ['learner'], email);
    const user = (await User.query(db).findOne({ email }))!;
    await createPurchase(db, {
      user,
      product: (await Product.query(db).findOne({ slug: 'typescript-fundamentals' }))!,
    });
    const own = await context.newPage();
    const ownSaid = watchConsole(own);
    await own.goto(`${baseUrl}${coursePath}`);
    await own.getByRole('link', { name: 'Start the course' }).waitFor({ timeout: 20_000 });
    await own.getByRole('progressbar', { name: 'Course progress' }).waitFor();
    expect(ownSaid).toEqual([]);
    await context.close();
  });

  it("writes dates in UTC on the server, then hydrates them into the reader's zone, in English whatever the browser's language", async () => {
    const { browser, baseUrl, db } = site();
    const workshop = (await Product.query(db).where({ productType: 'live' }).first())!;
    const [session] = await db('workshopSessions').where({ productId: workshop.id }).orderBy('startsAt');
    const range = (locale: string, timeZone: string) =>
      new Intl.DateTimeFormat(locale, {
        weekday: 'short',
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
        timeZone,
      })
        .formatRange(session.startsAt, session.endsAt)
        .replace(/[\u2009\u202f]/g, ' '); // plain spaces, as the storefront writes them whatever the ICU
    const productPath = `/products/${workshop.slug}`;
    // The HTML is the same for everyone, so it cannot know the reader: UTC.
    const html = await (await fetch(`${baseUrl}${productPath}`)).text();
    expect(html).toContain(range('en-US', 'UTC').replaceAll('&', '&amp;'));

    // A reader in Tokyo whose browser speaks German: no hydration error, then their times, in the storefront's English.
    const context = await browser.newContext({ timezoneId: 'Asia/Tokyo', locale: 'de-DE' });
    const page = await context.newPage();
    const said = watchConsole(page);
    await page.goto(`${baseUrl}${productPath}`);
    const first = page.locator('.session-list time').first();
    await expect.poll(() => first.textContent(), { timeout: 20_000 }).toBe(range('en-US', 'Asia/Tokyo'));
    expect(await page.getByText('Times are in your time zone (Asia/Tokyo).').count()).toBe(1);
    // The home page's prices and dates hydrate for them too.
    await page.goto(`${baseUrl}/`);
    await page.getByRole('link', { name: 'Sign in' }).first().waitFor(); // the session was asked: hydrated
    expect(await page.locator('main').innerText()).toContain('$');
    expect(said).toEqual([]);
    await context.close();
  });

  it('keeps the initial JavaScript of the home page within 83 KB gzip, and measures the other public pages', async () => {
    const { baseUrl, db } = site();
    const course = (await ContentResource.query(db)
      .where({ type: 'course' })
      .whereRaw(`fields->>'title' = ?`, ['TypeScript Fundamentals'])
      .first())!;
    const welcome = (await ContentResource.query(db)
      .where({ type: 'lesson' })
      .whereRaw(`fields->>'title' = ?`, ['Welcome'])
      .first())!;
    const sizes = {
      home: await initialJsKb(baseUrl, '/'),
      product: await initialJsKb(baseUrl, PRODUCT_PATH),
      course: await initialJsKb(baseUrl, `/courses/${course.fields.slug}`),
      lesson: await initialJsKb(baseUrl, `/courses/${course.fields.slug}/lessons/${welcome.fields.slug}`),
    };
    console.log(`initial JavaScript, KB gzip: ${JSON.stringify(sizes)}`);
    // 80 KB until every page carried the school's header and footer (about 1 KB), 82 until the header's search box.
    expect(sizes.home).toBeLessThanOrEqual(83);
    expect(sizes.product).toBeGreaterThan(sizes.home); // the page's chunk is preloaded with it
  });
});
