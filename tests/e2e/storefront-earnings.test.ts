import type { BrowserContext, Page } from 'playwright-core';
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { payoutService } from '../../api/src/finance/payouts/payouts';
import { createLogger } from '../../api/src/logger';
import { createProduct, createRevenueSplit } from '../../seeds/factories';
import { runSeeds } from '../../seeds/run';
import { testConfig } from '../support/app';
import { lastEmailTo } from '../support/outbox';
import {
  buyThroughSite,
  keepScreenshot,
  seriousViolations,
  signedInContext,
  useDemoSite,
  waitForStillness,
} from '../support/browser';

/**
 * An author's earnings in the storefront (docs/domain.md §19.1): the Earnings link in their account menu, the balance,
 * lines and payouts, and monthly statements that download as real files; someone who earns nothing is told how
 * earnings come about.
 */

const AUTHOR = 'erin.earnings@example.com';
const TITLE = 'プログラミング入門 Earning Course';
const WIDTHS = [
  [1440, 900],
  [390, 844],
] as const;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The page at each width: nothing scrolls sideways (tables scroll in their own box), no serious axe violation. */
async function checkWidths(page: Page, name: string) {
  for (const [width, height] of WIDTHS) {
    await page.setViewportSize({ width, height });
    await waitForStillness(page);
    await keepScreenshot(page, `${name}-${width}`);
    const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
    expect(scrollWidth, `${name} scrolls sideways at ${width} px`).toBeLessThanOrEqual(width);
    if (width === WIDTHS[0][0]) expect(await seriousViolations(page), name).toEqual([]);
  }
  await page.setViewportSize({ width: WIDTHS[0][0], height: WIDTHS[0][1] });
}

describe('an author’s earnings (Chromium)', () => {
  const site = useDemoSite((db) => runSeeds(db, { demo: true }));
  let author: BrowserContext;
  let page: Page;
  let productId = '';

  beforeAll(async () => {
    const { browser, baseUrl, db } = site();
    author = await signedInContext(browser, baseUrl, db, ['learner'], AUTHOR);
    page = await author.newPage();
    const user = await db('users').where({ email: AUTHOR }).first('id');
    productId = (await createProduct(db, { name: TITLE, slug: 'earning-course', unitAmount: 4900 })).id;
    await createRevenueSplit(db, { productId, type: 'platform', percent: 0.3 });
    await createRevenueSplit(db, { productId, type: 'owner', percent: 0.7, userId: user.id });
  });

  it('shows the balance, lines and payouts, and downloads the month’s statement as CSV and PDF', async () => {
    const { baseUrl, db } = site();
    await buyThroughSite(baseUrl, productId, 'first-buyer@example.com');
    await buyThroughSite(baseUrl, productId, 'second-buyer@example.com');
    // The monthly run, five weeks on (past the holding period), paid by hand by finance: paid in a later month than
    // today's, whatever today is, so that month has a payout and no line.
    const payouts = payoutService({
      db,
      clock: { now: () => new Date(Date.now() + 35 * DAY_MS) },
      logger: createLogger('silent'),
      config: testConfig(),
      stripe: null,
    });
    const finance = { id: null, email: 'finance@example.com' };
    await payouts.run(finance, null);
    const payout = await db('payouts as p')
      .join('users as u', 'u.id', 'p.recipientId')
      .where('u.email', AUTHOR)
      .first('p.*');
    await payouts.markPaid(payout.id, 'BANK-E2E-0001', finance, null);
    await buyThroughSite(baseUrl, productId, 'third-buyer@example.com'); // still held

    await page.goto(`${baseUrl}/purchases`);
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Earnings' }).click();
    await page.waitForURL(/\/earnings$/);
    await page.getByRole('heading', { name: 'Earnings', level: 1 }).waitFor();
    const balance = page.getByRole('region', { name: 'Balance' });
    await balance.waitFor();
    const lines = await db('splitLines as l')
      .join('users as u', 'u.id', 'l.userId')
      .where('u.email', AUTHOR)
      .orderBy('l.id');
    const earned = lines.reduce((s: number, l: { amount: number }) => s + l.amount, 0);
    const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
    expect(await balance.locator('.earnings-balance').innerText()).toBe(dollars(earned - payout.amount));
    const figure = (name: string) => balance.locator('dt', { hasText: name }).locator('xpath=following-sibling::dd[1]');
    expect(await figure('Still held').innerText()).toBe(dollars(lines[2].amount)); // the third sale
    expect(await figure('Paid to you').innerText()).toBe(dollars(payout.amount));
    const table = page.getByRole('table', { name: /Your share of each sale/ });
    expect(await table.getByRole('row').count()).toBe(1 + 3);
    expect(await table.innerText()).toContain(TITLE);
    const payoutsTable = page.getByRole('table', { name: 'Your payouts, newest first' });
    expect(await payoutsTable.innerText()).toContain('BANK-E2E-0001');
    expect(await payoutsTable.innerText()).toContain(dollars(payout.amount));
    await checkWidths(page, 'earnings');

    // One month's lines: the payout's month has none of them.
    const { paidAt } = await db('payouts').where({ id: payout.id }).first('paidAt');
    const payoutMonth = new Date(paidAt).toISOString().slice(0, 7);
    const monthFilter = page.getByLabel('Month', { exact: true });
    await monthFilter.selectOption(payoutMonth);
    await page.getByText('No lines in this month.').waitFor();
    await monthFilter.selectOption(new Date().toISOString().slice(0, 7));
    await expect.poll(() => table.getByRole('row').count()).toBe(1 + 3);
    await monthFilter.selectOption('');

    const month = new Date().toISOString().slice(0, 7);
    for (const format of ['CSV', 'PDF'] as const) {
      const link = page.getByRole('link', { name: `Statement for ${month}, ${format}` });
      const href = (await link.getAttribute('href'))!;
      expect(href).toBe(`/api/store/earnings/statements/${month}.${format.toLowerCase()}`);
      // Followed with the page's session: a real file of its kind.
      const answer = await page.request.get(`${baseUrl}${href}`);
      expect(answer.status()).toBe(200);
      expect(answer.headers()['content-type']).toBe(format === 'CSV' ? 'text/csv; charset=utf-8' : 'application/pdf');
      // And as the browser downloads it from the link.
      const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
      expect(download.suggestedFilename()).toBe(`earnings-${month}.${format.toLowerCase()}`);
      const bytes = await readFile((await download.path())!);
      if (format === 'CSV') {
        const text = bytes.toString('utf8');
        expect(text).toContain(TITLE);
        expect(text).toMatch(/Closing balance,,,,,,USD,,,,,-?\d+\.\d\d/);
      } else expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    }
  });

  // Far west of UTC: a line written early on the 1st (UTC) falls on the day before here.
  const ZONE = 'Pacific/Pago_Pago';
  let late: Page;

  it('links Earnings in the account menu as soon as the author signs in with the emailed link', async () => {
    const { browser, baseUrl, db } = site();
    const context = await browser.newContext({ timezoneId: ZONE, locale: 'en-US' });
    late = await context.newPage();
    await late.goto(`${baseUrl}/login`);
    await late.getByRole('textbox', { name: 'Email' }).fill(AUTHOR);
    await late.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await late.getByRole('heading', { name: 'Check your inbox' }).waitFor();
    const { link } = await lastEmailTo(db, AUTHOR);
    await late.goto(new URL(link!.pathname + link!.search, baseUrl).toString());
    await late.evaluate('window.sameLoad = true');
    await late.getByRole('button', { name: 'Continue' }).click();
    const account = late.getByRole('navigation', { name: 'Account' });
    await account.getByRole('link', { name: 'Invoices' }).waitFor();
    await account.getByRole('link', { name: 'Earnings' }).click();
    await late.waitForURL(/\/earnings$/);
    expect(await late.evaluate('window.sameLoad'), 'the page was loaded again').toBe(true);
  });

  it('keeps a page of lines and the keyboard’s place while the next page loads, and writes dates in UTC', async () => {
    const { baseUrl, db } = site();
    // Enough lines for two pages, written at 00:00:01 UTC on the 1st of this month.
    const [line] = await db('splitLines as l')
      .join('users as u', 'u.id', 'l.userId')
      .where('u.email', AUTHOR)
      .select('l.*');
    const now = new Date();
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1, 0, 0, 1));
    const { id: _id, ...copy } = line;
    await db('splitLines').insert(Array.from({ length: 48 }, () => ({ ...copy, createdAt: first })));

    await late.goto(`${baseUrl}/earnings`);
    const table = late.getByRole('table', { name: /Your share of each sale/ });
    await table.waitFor();
    expect(await table.getByRole('columnheader', { name: 'Date (UTC)' }).count()).toBe(1);
    const utcDay = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(first);
    expect(await table.getByRole('row').last().getByRole('cell').first().innerText()).toBe(utcDay);
    expect(await table.getByRole('caption').innerText()).toContain('51 in all, page 1 of 2');

    // The second page is held back until the table's state while it loads is seen.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await late.route(/\/api\/store\/earnings\?page=2$/, async (route) => {
      await held;
      await route.continue();
    });
    const older = late.getByRole('button', { name: 'Older' });
    await older.focus();
    await late.keyboard.press('Enter');
    const section = late.getByRole('region', { name: 'Lines' });
    await expect.poll(() => section.getAttribute('aria-busy')).toBe('true');
    expect(await table.getByRole('row').count()).toBe(1 + 50);
    expect(await older.evaluate((button) => button === document.activeElement)).toBe(true);
    release();
    await expect.poll(() => table.getByRole('caption').innerText()).toContain('page 2 of 2');
    expect(await section.getAttribute('aria-busy')).toBe('false');
    expect(await table.getByRole('row').count()).toBe(1 + 1);
    // The last page: Older does nothing now, and still holds the focus.
    expect(await older.getAttribute('aria-disabled')).toBe('true');
    expect(await older.evaluate((button) => button === document.activeElement)).toBe(true);
    await late.context().close();
  });

  it('tells someone who earns nothing how earnings come about, and shows them no Earnings link', async () => {
    const { browser, baseUrl, db } = site();
    const learner = await signedInContext(browser, baseUrl, db, ['learner'], 'no.earnings@example.com');
    const other = await learner.newPage();
    await other.goto(`${baseUrl}/earnings`);
    await other.getByText('You have no earnings yet').waitFor();
    expect(await other.getByRole('table').count()).toBe(0);
    const account = other.getByRole('navigation', { name: 'Account' });
    await account.getByRole('link', { name: 'Invoices' }).waitFor();
    expect(await account.getByRole('link', { name: 'Earnings' }).count()).toBe(0);
    await checkWidths(other, 'earnings-empty');
    await learner.close();
  });
});
