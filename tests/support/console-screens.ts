import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_WIDTHS, checkScreen, signedInContext, useDemoSite } from './browser';
import { seedEverything } from './everything';

/**
 * Every console screen an admin can reach from the menu, at the two widths staff use (1440 and 1024 px): each list,
 * its create form, the first record it shows and that record's edit form lay out without the page scrolling
 * sideways, without a label left untranslated, without a script error and without a server error behind it. A
 * screen added to the menu is checked without being named.
 *
 * The walk takes minutes, so it is shared among `shares` test files: file `share` (from 0) walks the menu's
 * destinations whose position modulo `shares` is `share`, each file on its own site and browser.
 */
export function describeConsoleScreens(share: number, shares: number): void {
  describe(`every console screen at 1440 and 1024 px (Chromium), share ${share + 1} of ${shares}`, () => {
    const site = useDemoSite(seedEverything);
    let page: Page;
    const failures: string[] = [];

    beforeAll(async () => {
      const context = await signedInContext(
        site().browser,
        site().baseUrl,
        site().db,
        ['admin'],
        'screens@example.com',
      );
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
     * A screen has loaded once nothing on it is still loading (react-admin's skeletons and progress bars). A bar with
     * a value (a team's seats used) measures something and is not loading.
     */
    async function loaded(): Promise<void> {
      await page
        .locator('[role="progressbar"]:not([aria-valuenow]), .MuiSkeleton-root, .RaLoadingIndicator-loader')
        .first()
        .waitFor({ state: 'detached', timeout: 20_000 })
        .catch(() => undefined); // a screen may keep a progress bar of its own (a job's); the stillness check follows
    }

    /**
     * Navigates and waits for the screen that was there to go: the router keeps the old screen up while the new one's
     * code loads (a transition), and it must not pass for the new one.
     */
    async function leaveFor(navigate: () => Promise<unknown>): Promise<void> {
      const before = await page.$('#main-content > *');
      const from = page.url();
      await navigate();
      if (before && page.url() !== from) {
        await page.waitForFunction((screen) => !screen.isConnected, before, { timeout: 20_000 }).catch(() => undefined);
      }
      await before?.dispose();
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
        await checkScreen(page, name, { widths: CONSOLE_WIDTHS, settle: 'layout' });
      } catch (error) {
        failures.push(error instanceof Error ? error.message : String(error));
      }
      const keys = await untranslated();
      if (keys.length) failures.push(`${name} shows untranslated labels: ${[...new Set(keys)].join(', ')}`);
    }

    /** From a list on screen: its first row's page and that record's edit form, when its rows open a page. */
    async function checkFirstRecord(path: string, checked: string[]): Promise<void> {
      const firstRow = page.locator('.RaDatagrid-tbody .RaDatagrid-row').first();
      if ((await firstRow.count()) === 0) return;
      // A list whose rows do not open a page (rowClick off) does not mark them clickable: nothing to wait for.
      if (!(await firstRow.evaluate((row) => row.classList.contains('RaDatagrid-clickableRow')))) return;
      // A row whose own rowClick leads nowhere stays where it is.
      let opened = false;
      await leaveFor(async () => {
        await firstRow.locator('.RaDatagrid-rowCell').first().click();
        opened = await page
          .waitForFunction((list) => location.hash !== list && !location.hash.startsWith(`${list}?`), `#/${path}`, {
            timeout: 5_000,
          })
          .then(() => true)
          .catch(() => false);
      });
      if (!opened) return;
      await page.locator('#main-content').waitFor();
      await loaded();
      await check(`${nameOf(path)}-record`);
      const record = new URL(page.url()).hash;
      checked.push(`${path} → ${record}`);
      const edit = page.locator(`#main-content a[href="${record.replace(/\/show(\/.*)?$/, '')}"]`);
      if ((await edit.count()) > 0) {
        await leaveFor(() => edit.first().click());
        await page.locator('form').first().waitFor();
        await loaded();
        await check(`${nameOf(path)}-edit`);
        checked.push(`${path} edit`);
      }
    }

    it(
      'lays out its lists, their create forms, their first records and those records’ edit forms at both widths',
      { timeout: 600_000 },
      async () => {
        const destinations = await menuDestinations();
        expect(destinations).toEqual(expect.arrayContaining(['finance', 'users', 'purchases', 'products', 'coupons']));
        const mine = destinations.filter((_, index) => index % shares === share);
        const checked: string[] = [];
        for (const path of mine) {
          await leaveFor(() => page.goto(`${site().baseUrl}/admin/#/${path}`));
          await page.locator('#main-content').waitFor();
          await loaded();
          await check(nameOf(path));
          checked.push(path);
          // The create form last: the list is still on screen for its first row, not loaded a second time.
          const creatable = path !== '' && (await page.locator(`a[href="#/${path}/create"]`).count()) > 0;
          if (path) await checkFirstRecord(path, checked);
          if (creatable) {
            await leaveFor(() => page.goto(`${site().baseUrl}/admin/#/${path}/create`));
            await page.locator('form').first().waitFor();
            await loaded();
            await check(`${nameOf(path)}-create`);
            checked.push(`${path}/create`);
          }
        }
        // Most lists have a record in the fixture; their pages were opened too.
        expect(checked.length).toBeGreaterThan(mine.length * 1.5);
        expect(failures).toEqual([]);
      },
    );
  });
}
