import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { runSeeds } from '../../seeds/run';
import { createCoupon, createProduct, createPurchase, createUser } from '../../seeds/factories';
import {
  ARTIFACTS_DIR,
  checkScreen,
  chooseOption,
  CONSOLE_WIDTHS,
  keepScreenshot,
  signedInContext,
  useDemoSite,
} from '../support/browser';

const FORMULA_NAME = '=HYPERLINK("http://evil.example","click me")';

describe('console lists: CSV export, saved filters and a bulk action (Chromium)', () => {
  const site = useDemoSite(async (db) => {
    await runSeeds(db, { demo: true });
    await createUser(db, { email: 'listcheck-a@example.com', name: 'List Check A' });
    await createUser(db, { email: 'listcheck-b@example.com', name: FORMULA_NAME });
    await createUser(db, { email: 'listcheck-c@example.com', name: 'List Check C' });
    await createCoupon(db, { code: 'LISTBULK1' });
    await createCoupon(db, { code: 'LISTBULK2' });
    await createCoupon(db, { code: 'LISTOFF1', status: 'inactive' });
    // A paying team's seat coupon (a code here only so the list's search finds it), and a plain one beside it.
    const product = await createProduct(db, { name: 'List Team Course' });
    const team = await createPurchase(db, { user: await createUser(db), product, totalAmount: 19_600 });
    const seats = await createCoupon(db, {
      code: 'LISTTEAM',
      percentageDiscount: 1,
      maxUses: 4,
      restrictedToProductId: product.id,
      bulkPurchaseId: team.id,
    });
    await db('purchases').where({ id: team.id }).update({ bulkCouponId: seats.id });
    await createCoupon(db, { code: 'LISTTEAMX' });
  });
  let page: Page;

  beforeAll(async () => {
    const { browser, baseUrl, db } = site();
    const context = await signedInContext(browser, baseUrl, db, ['support']);
    page = await context.newPage();
    await page.setViewportSize({ width: CONSOLE_WIDTHS[0][0], height: CONSOLE_WIDTHS[0][1] });
  });

  const rows = () => page.getByRole('row').filter({ has: page.getByRole('cell') });

  it('exports the filtered list: the CSV holds the rows the list shows, a formula made harmless', async () => {
    const { baseUrl } = site();
    await page.goto(`${baseUrl}/admin/#/users`);
    await page.getByPlaceholder(/search/i).fill('listcheck');
    await expect.poll(() => rows().count()).toBe(3);
    const shown = (await rows().allInnerTexts()).map((text) => /listcheck-\w@example\.com/.exec(text)?.[0]);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^users-\d{4}-\d{2}-\d{2}\.csv$/);
    mkdirSync(ARTIFACTS_DIR, { recursive: true });
    const file = path.join(ARTIFACTS_DIR, 'console-lists-users.csv');
    await download.saveAs(file);
    await page.getByText(`${download.suggestedFilename()}: 3 rows exported`).waitFor();
    const records = parse(readFileSync(file, 'utf8'), { bom: true, columns: true }) as Record<string, string>[];
    // The list's columns as people read them: Email and Name headers, the formula made harmless.
    expect(records.map((r) => r.Email)).toEqual(shown);
    expect(records.find((r) => r.Email === 'listcheck-b@example.com')!.Name).toBe(`'${FORMULA_NAME}`);
  });

  it('saves the coupon list’s filters and applies them again after a reload', async () => {
    const { baseUrl } = site();
    await page.goto(`${baseUrl}/admin/#/coupons?filter=${encodeURIComponent('{}')}`);
    await rows().filter({ hasText: 'LISTBULK1' }).waitFor();
    await chooseOption(page, 'Status', 'Inactive', { exact: true });
    await expect.poll(() => decodeURIComponent(page.url())).toContain('"status":"inactive"');
    await rows().filter({ hasText: 'LISTOFF1' }).waitFor();

    await page.getByRole('button', { name: 'Saved filters' }).click();
    await page.getByRole('menuitem', { name: /Save current filters/ }).click();
    await page.getByLabel('Name').fill('Inactive coupons');
    await keepScreenshot(page, 'console-lists-save-filters');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Filters saved as “Inactive coupons”').waitFor();

    // Every coupon again, then a reload: the saved filters come from the API, not from this page.
    await page.goto(`${baseUrl}/admin/#/coupons?filter=${encodeURIComponent('{}')}`);
    await page.reload();
    await rows().filter({ hasText: 'LISTBULK1' }).waitFor();
    const all = await rows().count();
    await page.getByRole('button', { name: 'Saved filters' }).click();
    await page.getByRole('menuitem', { name: 'Inactive coupons' }).waitFor();
    await keepScreenshot(page, 'console-lists-saved-filters-menu');
    await page.getByRole('menuitem', { name: 'Inactive coupons' }).click();
    await expect.poll(() => decodeURIComponent(page.url())).toContain('"status":"inactive"');
    await expect.poll(() => rows().filter({ hasText: 'LISTBULK1' }).count()).toBe(0);
    await rows().filter({ hasText: 'LISTOFF1' }).waitFor();
    expect(await rows().count()).toBeLessThan(all);
  });

  it('deactivates two selected coupons at once and shows them inactive', async () => {
    const { baseUrl, db } = site();
    await page.goto(`${baseUrl}/admin/#/coupons?filter=${encodeURIComponent('{"q":"LISTBULK"}')}`);
    await expect.poll(() => rows().count()).toBe(2);
    await page.getByRole('button', { name: 'Export' }).waitFor();
    await page.getByText('Filters “Inactive coupons” applied').waitFor({ state: 'hidden' }); // a clean screenshot
    await checkScreen(page, 'console-lists-coupons', { widths: CONSOLE_WIDTHS });
    for (const code of ['LISTBULK1', 'LISTBULK2']) await rows().filter({ hasText: code }).getByRole('checkbox').check();
    await page.getByText('2 items selected').waitFor();
    await checkScreen(page, 'console-lists-coupons-selected', { widths: CONSOLE_WIDTHS });

    await page.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByRole('dialog').getByText('Deactivate 2 coupons?').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('2 coupons deactivated.').waitFor();
    for (const code of ['LISTBULK1', 'LISTBULK2'])
      await rows().filter({ hasText: code }).getByText('Inactive', { exact: true }).waitFor();
    expect(await db('coupons').whereIn('code', ['LISTBULK1', 'LISTBULK2']).pluck('status')).toEqual([
      'inactive',
      'inactive',
    ]);
    const audit = await db('auditLogs').where({ resource: 'coupons', action: 'update' });
    expect(audit.filter((e) => e.after?.status === 'inactive')).toHaveLength(2);
  });

  it('leaves a team’s seat coupon active when deactivating in bulk, and says how many it skipped and why', async () => {
    const { baseUrl, db } = site();
    await page.goto(`${baseUrl}/admin/#/coupons?filter=${encodeURIComponent('{"q":"LISTTEAM"}')}`);
    await expect.poll(() => rows().count()).toBe(2);
    for (const code of ['LISTTEAM', 'LISTTEAMX'])
      await rows()
        .filter({ has: page.getByRole('cell', { name: code, exact: true }) })
        .getByRole('checkbox')
        .check();
    await page.getByText('2 items selected').waitFor();
    await page.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page
      .getByText(
        /^1 coupon deactivated\. 1 skipped: A team's seat coupon: deactivating it would break the team's invite link/,
      )
      .waitFor();
    await checkScreen(page, 'console-lists-coupons-team-skipped', { widths: CONSOLE_WIDTHS });
    await rows()
      .filter({ has: page.getByRole('cell', { name: 'LISTTEAMX', exact: true }) })
      .getByText('Inactive', { exact: true })
      .waitFor();
    expect(await db('coupons').where({ code: 'LISTTEAM' }).first('status')).toEqual({ status: 'active' });
  });
});
