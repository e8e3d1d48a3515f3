import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../api/src/db/connection';
import { runSeeds } from '../../seeds/run';
import { ContentResource, Product } from '../support/models';
import { checkScreen, keepScreenshot, signedInContext, useDemoSite } from '../support/browser';

/*
 * The home and product pages as they sell (Chromium): what the server's HTML says before any script (the price, the
 * sale and its countdown, each card's instructor and length), the same once hydrated, at a laptop's and a phone's
 * width; and the featured order, set in the console, leading the home page.
 */

/** The demo, with a ready 20-second video on the first of TypeScript Fundamentals' nine lessons (none else timed). */
async function seedWithShortVideo(db: Db) {
  await runSeeds(db, { demo: true });
  const welcome = (await ContentResource.query(db)
    .where({ type: 'lesson' })
    .whereRaw(`fields->>'title' = 'Welcome'`)
    .first())!;
  await db('lessonVideos').insert({
    lessonId: welcome.id,
    status: 'ready',
    sourceKey: 'videos/welcome.mp4',
    sourceName: 'welcome.mp4',
    sourceSize: 1000,
    durationMs: 20_000,
    hlsKey: 'videos/welcome/master.m3u8',
  });
}

/** What a page's console and uncaught errors said (a hydration mismatch is one). */
function watchConsole(page: Page): string[] {
  const said: string[] = [];
  page.on('console', (message) => {
    if (/Failed to load resource: .* 401/.test(message.text())) return; // how a signed-out session is asked
    if (message.type() === 'error' || message.type() === 'warning') said.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => said.push(`pageerror: ${error.message}`));
  return said;
}

/** The text of each card of the home page's catalog, in order. */
const cards = (page: Page) => page.locator('.product-card').allInnerTexts();

/** The four boxes of the sale's countdown. */
const countdown = (page: Page) => page.getByRole('timer').locator('.sale-countdown-value').allInnerTexts();

describe('the home and product pages as they sell (Chromium)', () => {
  const site = useDemoSite(seedWithShortVideo);

  it('shows each card’s instructor and length from complete data only, the same with and without JavaScript', async () => {
    const { browser, baseUrl } = site();
    const off = await browser.newContext({ javaScriptEnabled: false });
    const still = await off.newPage();
    await still.goto(`${baseUrl}/`);
    const served = await cards(still);
    const fundamentals = served.find((text) => text.includes('TypeScript Fundamentals'))!;
    // Nine lessons, one 20-second video: "9 lessons", never "1 min".
    expect(fundamentals).toMatch(/9 lessons/);
    expect(fundamentals).not.toMatch(/\bmin\b/);
    expect(served.find((text) => text.includes('TypeScript Pro'))).toMatch(/By Cora Contributor/);
    await checkScreen(still, 'sells-home-no-js');
    await off.close();

    const context = await browser.newContext();
    const page = await context.newPage();
    const said = watchConsole(page);
    await page.goto(`${baseUrl}/`);
    await page.getByRole('link', { name: 'Sign in' }).first().waitFor(); // hydrated: the session was asked
    expect(await cards(page)).toEqual(served);
    expect(said).toEqual([]);
    await checkScreen(page, 'sells-home', { axe: true });
    await context.close();
  });

  it('has the sale’s price and countdown in the HTML, then counts down in the reader’s zone without a loading line', async () => {
    const { browser, baseUrl, db } = site();
    const path = '/products/typescript-fundamentals';
    const off = await browser.newContext({ javaScriptEnabled: false });
    const still = await off.newPage();
    await still.goto(`${baseUrl}${path}`);
    const buy = still.getByRole('region', { name: 'Buy this course' });
    // 20 % off $49.00, struck through; the time left as numbers, the end in UTC.
    await buy.getByText('$39.20').first().waitFor();
    expect(await buy.locator('s.price-full').innerText()).toBe('$49.00');
    await buy
      .getByText(/Sale:\s+20 % off/)
      .first()
      .waitFor();
    expect((await countdown(still)).every((value) => /^\d+$/.test(value))).toBe(true);
    expect(await still.locator('.sale-banner time').innerText()).toMatch(/ UTC$/);
    expect(await still.getByText('Loading the price').count()).toBe(0);
    // The hero says how many lessons, not a length from one video.
    expect(await still.getByRole('list', { name: 'At a glance' }).innerText()).not.toMatch(/\bmin\b/);
    await checkScreen(still, 'sells-product-no-js');
    await off.close();

    const context = await browser.newContext({ timezoneId: 'Asia/Tokyo' });
    const page = await context.newPage();
    const said = watchConsole(page);
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { loadingLines: string[] }).loadingLines = seen;
      new MutationObserver(() => {
        for (const line of document.querySelectorAll('.price-placeholder')) seen.push(line.textContent ?? '');
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(`${baseUrl}${path}`);
    const sale = await db('coupons').where({ default: true }).first();
    const tokyo = new Intl.DateTimeFormat('en-US', {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZone: 'Asia/Tokyo',
      timeZoneName: 'short',
    }).format(sale.expires);
    await page.getByText(`Until ${tokyo} (your time)`).waitFor({ timeout: 20_000 });
    const first = (await countdown(page))[3];
    await expect.poll(async () => (await countdown(page))[3], { timeout: 5_000 }).not.toBe(first);
    await page.getByRole('button', { name: /^Buy/ }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { loadingLines: string[] }).loadingLines)).toEqual([]);
    expect(said).toEqual([]);
    await checkScreen(page, 'sells-product', { axe: true });
    await context.close();
  });

  it('ends a free lesson with a quiet line to the course; a locked one shows its title and notice without JavaScript', async () => {
    const { browser, baseUrl, db } = site();
    const course = (await ContentResource.query(db)
      .where({ type: 'course' })
      .whereRaw(`fields->>'title' = 'TypeScript Fundamentals'`)
      .first())!;
    const lessonPath = async (title: string) => {
      const lesson = (await ContentResource.query(db)
        .where({ type: 'lesson' })
        .whereRaw(`fields->>'title' = ?`, [title])
        .first())!;
      return `/courses/${course.fields.slug}/lessons/${lesson.fields.slug}`;
    };
    const off = await browser.newContext({ javaScriptEnabled: false });
    const still = await off.newPage();
    await still.goto(`${baseUrl}${await lessonPath('Narrowing')}`);
    await still.getByRole('heading', { level: 1, name: 'Narrowing' }).waitFor();
    await still.getByRole('heading', { name: 'Sign in to study this lesson' }).waitFor();
    expect(await still.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
    await checkScreen(still, 'sells-locked-lesson-no-js');
    await off.close();

    const context = await browser.newContext();
    const page = await context.newPage();
    const said = watchConsole(page);
    await page.goto(`${baseUrl}${await lessonPath('Union types')}`); // free, and without the seeded video
    const note = page.locator('.free-preview-note');
    await note.getByText('This lesson is a free preview of TypeScript Fundamentals.').waitFor();
    await checkScreen(page, 'sells-free-lesson', { axe: true });
    await note.getByRole('link', { name: /Get the whole course/ }).click();
    await page.getByRole('heading', { level: 1, name: 'TypeScript Fundamentals' }).waitFor();
    expect(page.url()).toBe(`${baseUrl}/products/typescript-fundamentals`);
    expect(said).toEqual([]);
    await context.close();
  });

  it('puts the course staff feature in the console first on the home page', async () => {
    const { browser, baseUrl, db } = site();
    const pro = (await Product.query(db).findOne({ key: 'typescript-pro' }))!;
    const context = await signedInContext(browser, baseUrl, db, ['admin']);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${baseUrl}/admin/#/products/${pro.id}`);
    const field = page.getByLabel('Featured order');
    await field.waitFor();
    await field.fill('0');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    // The API's refusal, under the field; nothing saved.
    await page.getByText('at least 1', { exact: true }).waitFor();
    expect((await Product.query(db).findById(pro.id))!.featuredRank).toBeNull();
    await field.fill('1');
    await keepScreenshot(page, 'sells-console-featured-1280');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(async () => (await Product.query(db).findById(pro.id))!.featuredRank, { timeout: 10_000 })
      .toBe(1);

    const home = await context.newPage();
    await home.goto(`${baseUrl}/`);
    await home.locator('.product-card').first().waitFor();
    expect((await cards(home))[0]).toContain('TypeScript Pro');
    await context.close();
  });
});
