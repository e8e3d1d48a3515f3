import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { checkScreen, seriousViolations, signedInContext, STOREFRONT_WIDTHS, useDemoSite } from '../support/browser';

/** Searching from the header (docs/domain.md §24) with the keyboard, at a laptop's and a phone's width. */
describe('storefront search (Chromium)', () => {
  const site = useDemoSite();

  async function openHome(width: number, height: number): Promise<Page> {
    const context = await site().browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    await page.goto(`${site().baseUrl}/`);
    // Folded behind a button on a phone: there until opened.
    await page.locator('form#site-search').waitFor({ state: 'attached' });
    return page;
  }
  const focusedId = (page: Page) => page.evaluate<string>('document.activeElement?.id ?? ""');
  const box = (page: Page) => page.getByRole('searchbox', { name: 'Search courses and lessons' });

  for (const [width, height] of STOREFRONT_WIDTHS) {
    it(`finds a course through a typo and a lesson by its body, highlighted, keyboard only, at ${width} px`, async () => {
      const page = await openHome(width, height);
      // "/" anywhere puts the cursor in the search box.
      await page.locator('body').press('/');
      await expect.poll(() => focusedId(page)).toBe('site-search-q');
      await page.keyboard.type('typscript');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Results for “typscript”' }).waitFor();
      const course = page.getByRole('link', { name: 'TypeScript Fundamentals' }).first();
      await course.waitFor();
      await checkScreen(page, 'search-typo', { axe: true }); // both widths, axe at the first
      await page.setViewportSize({ width, height });
      expect(await seriousViolations(page)).toEqual([]);

      // The words of an open lesson's body, the match marked.
      await box(page).focus();
      await page.keyboard.press('Control+A');
      await page.keyboard.type('exercise');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Results for “exercise”' }).waitFor();
      const snippet = page.locator('.search-snippet mark').first();
      await snippet.waitFor();
      expect((await snippet.textContent())!.toLowerCase()).toMatch(/^exercises?$/);
      expect(await seriousViolations(page)).toEqual([]);

      // Following a result with the keyboard opens the lesson.
      const welcome = page.getByRole('link', { name: 'Welcome' });
      await welcome.focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/courses\/[^/]+\/lessons\//);
      await page.getByRole('heading', { name: 'Welcome', level: 1 }).waitFor();
      await page.context().close();
    });
  }

  it('shows a paid lesson to a visitor by its title only, keeps "/" typed in a field, and says what to try', async () => {
    const [width, height] = STOREFRONT_WIDTHS[1];
    const page = await openHome(width, height);
    // On a phone the box is behind a button, which keeps the header one row.
    expect(await box(page).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Search courses' }).click();
    await expect.poll(() => focusedId(page)).toBe('site-search-q');
    await page.keyboard.type('narrowing');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Results for “narrowing”' }).waitFor();
    const lesson = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('link', { name: 'Narrowing', exact: true }) });
    await lesson.getByText('Locked: the lesson’s page says how to open it.').waitFor();
    expect(await lesson.locator('mark').count()).toBe(0);

    // Only in that lesson's body: nothing for a visitor, and the page says what to try.
    await box(page).fill('');
    await page.keyboard.type('discriminated a/b');
    expect(await box(page).inputValue()).toBe('discriminated a/b'); // "/" in a field is a character
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Results for “discriminated a/b”' }).waitFor();
    await page.getByText('Nothing matches “discriminated a/b”. Try:').waitFor();
    await page.getByRole('link', { name: 'browsing every course' }).waitFor();
    await checkScreen(page, 'search-empty', { axe: true });
    await page.setViewportSize({ width, height });
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('keeps "/" typed in a comment box as a character, and takes it as the shortcut elsewhere on the page', async () => {
    const { browser, baseUrl, db } = site();
    const context = await signedInContext(browser, baseUrl, db, ['learner']);
    const page = await context.newPage();
    // The demo's open first lesson, found through search as a learner finds it.
    await page.goto(`${baseUrl}/search?q=welcome`);
    await page.getByRole('link', { name: 'Welcome', exact: true }).first().click();
    await page.getByRole('heading', { name: 'Welcome', level: 1 }).waitFor();
    const field = page.getByRole('region', { name: /^Comments/ }).getByRole('textbox', { name: 'Add a comment' });
    await field.click();
    await page.keyboard.type('Is a/b a union?');
    expect(await field.inputValue()).toBe('Is a/b a union?');
    expect(await focusedId(page)).not.toBe('site-search-q');
    expect(await box(page).inputValue()).toBe('');

    await page.getByRole('heading', { name: 'Welcome', level: 1 }).click();
    await page.keyboard.press('/');
    await expect.poll(() => focusedId(page)).toBe('site-search-q');
    expect(await field.inputValue()).toBe('Is a/b a union?'); // what was typed stays
    await context.close();
  });
});
