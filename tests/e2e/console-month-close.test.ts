import ExcelJS from 'exceljs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, createRevenueSplit, createUser } from '../../seeds/factories';
import { runSeeds } from '../../seeds/run';
import { buyThroughSite, keepScreenshot, signedInContext, useDemoSite, waitForStillness } from '../support/browser';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The month `back` months before this one (UTC), as YYYY-MM. */
function monthsAgo(back: number): string {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - back, 1)).toISOString().slice(0, 7);
}

describe('closing a month in the console: the confirmation with its figures, the workbook downloaded (Chromium)', () => {
  const site = useDemoSite((db) => runSeeds(db, { demo: false }));
  let context: BrowserContext | undefined;
  let page: Page;
  // Two ended months with money: the one two months back (the first with any) and the last one.
  const first = monthsAgo(2);
  const second = monthsAgo(1);
  const ledger = new Map<string, number>();

  beforeAll(async () => {
    const { db, baseUrl } = site();
    const course = await createProduct(db, { name: 'Month Close Course', unitAmount: 12_000 });
    const author = await createUser(db, { email: 'author.closing@example.com', name: 'Clara Closing' });
    await createRevenueSplit(db, { productId: course.id, type: 'platform', percent: 0.3 });
    await createRevenueSplit(db, { productId: course.id, type: 'owner', percent: 0.7, userId: author.id });
    const purchaseId = await buyThroughSite(baseUrl, course.id, 'closing.buyer@example.com');
    const purchase = await db('purchases').where({ id: purchaseId }).first();
    // Ledger lines of the two earlier months (the ledger only ever adds lines).
    for (const [month, amount] of [
      [first, 5_000],
      [second, 7_250],
    ] as const) {
      await db('splitLines').insert({
        merchantChargeId: purchase.merchantChargeId,
        productId: course.id,
        recipientType: 'owner',
        userId: author.id,
        kind: 'sale',
        amount,
        currency: 'usd',
        createdAt: new Date(`${month}-10T12:00:00Z`),
      });
      ledger.set(month, amount);
    }
  });
  afterAll(() => context?.close());

  const dialog = () => page.getByRole('dialog');

  it.each([
    [1440, 900, first],
    [390, 844, second],
  ] as const)(
    'at %i px: closes the month behind its figures and downloads its workbook',
    async (width, height, month) => {
      const { baseUrl, db } = site();
      await context?.close();
      context = await signedInContext(site().browser, baseUrl, db, ['finance']);
      page = await context.newPage();
      await page.setViewportSize({ width, height });
      await page.goto(`${baseUrl}/admin/#/month-closes`);

      await page.getByText(`${month} has ended and is open.`).waitFor();
      await page
        .getByRole('button', { name: `Close ${month}` })
        .first()
        .click();
      await dialog().getByText(`Close ${month} and freeze these figures?`).waitFor();
      // The figures to be frozen: the month's net revenue, in dollars.
      const net = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(
        ledger.get(month)! / 100,
      );
      await dialog()
        .getByRole('row', { name: /Net revenue/ })
        .getByText(net)
        .waitFor();
      await keepScreenshot(page, `console-month-close-confirm-${width}`);
      await dialog()
        .getByRole('button', { name: `Close ${month}` })
        .click();
      await page.getByText(`${month} is closed`).first().waitFor();
      expect(await db('monthCloses').where({ month }).first()).toMatchObject({ month });

      // The closed month's row opens its frozen figures (on a phone the whole row is the link), where its workbook
      // is one tap away; on a wide screen the row carries the download link too.
      const narrow = width < 600;
      const listed = narrow
        ? page.locator(`a[href="#/month-closes/${month}/show"]`)
        : page.getByRole('cell', { name: month, exact: true });
      const link = page.getByRole('link', { name: `Download ${month}.xlsx`, exact: true });
      if (narrow) {
        await listed.click();
        await page.waitForURL(new RegExp(`#/month-closes/${month}/show$`));
      }
      await link.waitFor();
      await waitForStillness(page);
      const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
      expect(scrollWidth, `the month-close screen scrolls sideways at ${width} px`).toBeLessThanOrEqual(width);
      const box = (await link.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      await keepScreenshot(page, `console-month-close-${width}`);

      // Following the link as the browser would (its session): the workbook, which parses, with the month's net.
      const href = await link.getAttribute('href');
      const answer = await page.request.get(new URL(href!, baseUrl).toString());
      expect(answer.status()).toBe(200);
      expect(answer.headers()['content-type']).toBe(XLSX);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load((await answer.body()) as unknown as ArrayBuffer);
      const summary = book.getWorksheet('Summary')!;
      const headers = (summary.getRow(1).values as unknown[]).map(String);
      const row = summary.getRow(2).values as unknown[];
      expect(row[headers.indexOf('Month')]).toBe(month);
      expect(row[headers.indexOf('Net revenue')]).toBe(ledger.get(month)! / 100);

      if (!narrow) {
        await listed.click();
        await page.waitForURL(new RegExp(`#/month-closes/${month}/show$`));
      }
      await page
        .getByRole('row', { name: /Net revenue/ })
        .getByText(net)
        .waitFor();
    },
  );

  it('shows a refund dated in a closed month as booked in the open month, belonging to the closed one', async () => {
    const { db, baseUrl } = site();
    const charge = await db('merchantCharges').first();
    // As a processor's refund dated on the closed month's last days would arrive: booked on the open month's start.
    const [refund] = await db('merchantRefunds')
      .insert({
        merchantAccountId: charge.merchantAccountId,
        merchantChargeId: charge.id,
        identifier: 're_late_for_closed_month',
        status: 'succeeded',
        amount: 500,
        idempotencyKey: 'late-for-closed-month',
        reasonCode: 'provider',
        createdAt: new Date(`${second}-28T12:00:00Z`),
      })
      .returning('*');
    expect(refund).toMatchObject({ belongsToMonth: second, createdAt: new Date(`${monthsAgo(0)}-01T00:00:00Z`) });
    await page.goto(`${baseUrl}/admin/#/merchant-refunds/${refund.id}/show`);
    await page.getByText('Belongs to closed month').waitFor();
    await page.getByText(second, { exact: true }).waitFor();
  });
});
