import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_WIDTHS, checkScreen, signedInContext, useDemoSite } from '../support/browser';
import { seedEverything } from '../support/everything';

/**
 * Every console screen an admin can reach from the menu, at the two widths staff use (1440 and 1024 px): each list,
 * its create form, the first record it shows and that record's edit form lay out without the page scrolling
 * sideways, without a label left untranslated, without a script error and without a server error behind it. A
 * screen added to the menu is checked here without being named.
 */
describe('every console screen at 1440 and 1024 px (Chromium)', () => {
  const site = useDemoSite(seedEverything);
  let page: Page;
  const failures: string[] = [];

  beforeAll(async () => {
    const context = await signedInContext(site().browser, site().baseUrl, site().db, ['admin'], 'screens@example.com');
    page = await context.newPage();
    page.on('pageerror', (error) => failures.push(`script error on ${page.url()}: ${error.message}`));
    page.on('response', (response) => {
      if (response.status() >= 500) failures.push(`${response.status()} from ${response.url()}`);
    });
  });

  /** The menu's destinations, in its order: the dashboard, finance, then every resource's list. */
  async function menuDestinations(): Promise<string[]> {
    await page.setViewportSize({ width: CONSOLE_WIDTHS[0][0], height: CONSOLE_WIDTHS[0][1] });
    await page.goto(`${site().baseUrl}/admin/#/`);
    const items = page.getByRole('menuitem');
    await page.getByRole('menuitem', { name: 'Users' }).waitFor();
    return items.evaluateAll((links) => links.map((a) => (a.getAttribute('href') ?? '').replace(/^#\//, '')));
  }

  /**
   * A screen has loaded once nothing on it is still loading (react-admin's skeletons and progress bars). A bar with a
   * value (a team's seats used) measures something and is not loading.
   */
  async function loaded(): Promise<void> {
    await page
      .locator('[role="progressbar"]:not([aria-valuenow]), .MuiSkeleton-root, .RaLoadingIndicator-loader')
      .first()
      .waitFor({ state: 'detached', timeout: 20_000 })
      .catch(() => undefined); // a screen may keep a progress bar of its own (a job's); the stillness check follows
  }

  const nameOf = (path: string) =>
    `console-screen-${path.replace(/[^a-z0-9]+/gi, '-').replace(/-$/, '') || 'dashboard'}`;

  /** Catalog keys shown as they are (a label, placeholder or name whose translation is missing). */
  const untranslated = () =>
    page.evaluate<
      string[]
    >(`[document.body.innerText, ...[...document.querySelectorAll('[placeholder], [aria-label], [title]')]
      .flatMap((e) => [e.getAttribute('placeholder'), e.getAttribute('aria-label'), e.getAttribute('title')])]
      .join('\\n').match(/\\b(resources|console|finance|reports|ra)\\.[a-z][\\w-]*\\.[\\w.-]+/g) ?? []`);

  /** Every screen is checked, and every screen that fails is named at the end. */
  async function check(name: string): Promise<void> {
    try {
      await checkScreen(page, name, { widths: CONSOLE_WIDTHS });
    } catch (error) {
      failures.push(error instanceof Error ? error.message : String(error));
    }
    const keys = await untranslated();
    if (keys.length) failures.push(`${name} shows untranslated labels: ${[...new Set(keys)].join(', ')}`);
  }

  it(
    'lays out every list, its create form, its first record and that record’s edit form at both widths',
    { timeout: 900_000 },
    async () => {
      const destinations = await menuDestinations();
      expect(destinations).toEqual(expect.arrayContaining(['finance', 'users', 'purchases', 'products', 'coupons']));
      const checked: string[] = [];
      for (const path of destinations) {
        await page.goto(`${site().baseUrl}/admin/#/${path}`);
        await page.locator('#main-content').waitFor();
        await loaded();
        await check(nameOf(path));
        checked.push(path);
        if (path && (await page.locator(`a[href="#/${path}/create"]`).count()) > 0) {
          await page.goto(`${site().baseUrl}/admin/#/${path}/create`);
          await page.locator('form').first().waitFor();
          await check(`${nameOf(path)}-create`);
          checked.push(`${path}/create`);
          await page.goto(`${site().baseUrl}/admin/#/${path}`);
          await loaded();
        }

        const firstRow = page.locator('.RaDatagrid-tbody .RaDatagrid-row').first();
        if (path && (await firstRow.count()) > 0) {
          await firstRow.locator('.RaDatagrid-rowCell').first().click();
          // A list whose rows do not open a page (rowClick off) stays where it is.
          const opened = await page
            .waitForFunction((list) => location.hash !== list && !location.hash.startsWith(`${list}?`), `#/${path}`, {
              timeout: 5_000,
            })
            .then(() => true)
            .catch(() => false);
          if (!opened) continue;
          await page.locator('#main-content').waitFor();
          await loaded();
          await check(`${nameOf(path)}-record`);
          const record = new URL(page.url()).hash;
          checked.push(`${path} → ${record}`);
          const edit = page.locator(`#main-content a[href="${record.replace(/\/show(\/.*)?$/, '')}"]`);
          if ((await edit.count()) > 0) {
            await edit.first().click();
            await page.locator('form').first().waitFor();
            await loaded();
            await check(`${nameOf(path)}-edit`);
            checked.push(`${path} edit`);
          }
        }
      }
      // Most lists have a record in the fixture; their pages were opened too.
      expect(checked.length).toBeGreaterThan(destinations.length * 1.5);
      expect(failures).toEqual([]);
    },
  );
});
