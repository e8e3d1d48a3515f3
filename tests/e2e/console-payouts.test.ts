import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, createRevenueSplit, createUser } from '../../seeds/factories';
import { runSeeds } from '../../seeds/run';
import {
  ARTIFACTS_DIR,
  buyThroughSite,
  keepScreenshot,
  signedInContext,
  useDemoSite,
  waitForStillness,
} from '../support/browser';

const DAY_MS = 86_400_000;
/** "$1,234.56": how the console writes cents. */
const money = (cents: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);

describe('payouts in the console: a run, a payout marked paid, the balances (Chromium)', () => {
  const site = useDemoSite((db) => runSeeds(db, { demo: false }));
  let context: BrowserContext;
  let page: Page;
  let earned = 0;
  let sale: { merchantChargeId: string; productId: string } | null = null;

  beforeAll(async () => {
    const { db, baseUrl } = site();
    const course = await createProduct(db, { name: 'Payout Course', unitAmount: 9_000 });
    const author = await createUser(db, { email: 'author.paid@example.com', name: 'Ada Author' });
    await createRevenueSplit(db, { productId: course.id, type: 'platform', percent: 0.3 });
    await createRevenueSplit(db, { productId: course.id, type: 'owner', percent: 0.7, userId: author.id });
    const purchaseId = await buyThroughSite(baseUrl, course.id, 'payout.buyer@example.com');
    const purchase = await db('purchases').where({ id: purchaseId }).first();
    // The sale's lines as they stand once the holding period has passed (the ledger only ever adds lines).
    await db('splitLines').insert({
      merchantChargeId: purchase.merchantChargeId,
      productId: course.id,
      recipientType: 'owner',
      userId: author.id,
      kind: 'sale',
      amount: 6_000,
      currency: 'usd',
      createdAt: new Date(Date.now() - 30 * DAY_MS),
    });
    sale = { merchantChargeId: purchase.merchantChargeId, productId: course.id };
    const [lines] = await db('splitLines').where({ userId: author.id }).sum({ total: 'amount' });
    earned = Number(lines!.total);
    context = await signedInContext(site().browser, baseUrl, db, ['finance']);
    page = await context.newPage();
  });
  afterAll(() => context?.close());

  const dialog = () => page.getByRole('dialog');

  it('runs payouts behind a confirmation, marks the payout paid with its reference, and shows the balance', async () => {
    const { baseUrl, db } = site();
    await page.goto(`${baseUrl}/admin/#/payouts`);
    await page.getByRole('button', { name: 'Run payouts' }).first().click();
    await dialog().getByText('Pay every recipient whose payable balance has reached the minimum?').waitFor();
    await dialog().getByRole('button', { name: 'Run payouts' }).click();
    await page.getByText('Payout run: 1 made, 0 sent by Stripe, 0 failed').waitFor();
    const payout = await db('payouts').first();
    expect(payout).toMatchObject({ amount: 6_000, status: 'pending', method: 'manual' });
    await page.getByText('Pending', { exact: true }).waitFor();
    await keepScreenshot(page, 'console-payouts');

    await page.getByRole('button', { name: 'Mark paid' }).click();
    await dialog().getByRole('heading', { name: 'Mark paid' }).waitFor();
    await dialog().getByLabel('Reference (e.g. the bank transfer id)').fill('BANK-2026-11');
    await dialog().getByRole('button', { name: 'Mark paid' }).click();
    await page.getByText('Payout marked paid').waitFor();
    await page.getByText('Paid', { exact: true }).first().waitFor();
    expect(await db('payouts').where({ id: payout.id }).first()).toMatchObject({
      status: 'paid',
      reference: 'BANK-2026-11',
    });

    await page.getByRole('menuitem', { name: 'Payout balances' }).click();
    // The payouts list has a row for Ada Author too: read the balances table's row, once that table is there.
    await page.getByRole('columnheader', { name: 'Clawed back' }).waitFor();
    const row = page.getByRole('row', { name: /Ada Author/ });
    await row.waitFor();
    const cells = await row.getByRole('cell').allInnerTexts();
    expect(cells.slice(0, 2)).toEqual(['Ada Author', 'USD']);
    // Earned, clawed back, paid, in payouts, balance (the sale just made waits out the holding period), payable.
    expect(cells.slice(2)).toEqual([money(earned), '$0.00', '$60.00', '$0.00', money(earned - 6_000), '$0.00']);
    await keepScreenshot(page, 'console-payout-balances');
  });

  /** A desktop and a phone: the screens must show whom, how much and where it stands at both. */
  const WIDTHS = [
    [1440, 900],
    [390, 844],
  ] as const;

  /** The page does not scroll sideways, and each essential is on screen, not cut off at the right. */
  async function expectOnScreen(width: number, name: string, ...essentials: Locator[]): Promise<void> {
    await waitForStillness(page);
    const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
    expect(scrollWidth, `${name} scrolls sideways at ${width} px`).toBeLessThanOrEqual(width);
    for (const essential of essentials) {
      const box = (await essential.boundingBox())!;
      expect(box, `${name}: ${String(essential)} at ${width} px`).not.toBeNull();
      expect(box.x, `${name}: ${String(essential)} starts on screen`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `${name}: ${String(essential)} ends on screen`).toBeLessThanOrEqual(width);
    }
    await keepScreenshot(page, `${name}-${width}`);
  }

  it.each(WIDTHS)(
    'at %i px: the list, a payout and the balances show recipient, amount and status, and each button lands',
    async (width, height) => {
      const { baseUrl, db } = site();
      // A browser of its own at this width, as a person on a phone or at a desk has (the menu's state included).
      await context.close();
      context = await signedInContext(site().browser, baseUrl, db, ['finance']);
      page = await context.newPage();
      await page.setViewportSize({ width, height });
      const name = `Wide ${width} Author`;
      const author = await createUser(db, { email: `author.${width}@example.com`, name });
      const amount = 7_000 + width;
      await db('splitLines').insert({
        ...sale!,
        recipientType: 'owner',
        userId: author.id,
        kind: 'sale',
        amount,
        currency: 'usd',
        createdAt: new Date(Date.now() - 30 * DAY_MS),
      });

      // Run payouts: the toolbar's button asks first, then says what the run made.
      await page.goto(`${baseUrl}/admin/#/payouts`);
      await page.getByRole('button', { name: 'Run payouts' }).first().click();
      await dialog().getByRole('button', { name: 'Run payouts' }).click();
      await page.getByText('Payout run: 1 made, 0 sent by Stripe, 0 failed').waitFor();
      const payout = await db('payouts').where({ recipientId: author.id }).first();
      expect(payout).toMatchObject({ amount, status: 'pending', method: 'manual' });

      // The list: the payout's row (a table row on a desktop, a list item on a phone) with whom, how much, its status.
      const row = page.locator('tr, li').filter({ hasText: name });
      await row.waitFor();
      await expectOnScreen(
        width,
        'console-payouts-list',
        row.getByText(name),
        row.getByText(money(amount)),
        row.getByText('Pending'),
      );

      // Export: the list's CSV downloads, with this payout in it.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Export' }).click(),
      ]);
      mkdirSync(ARTIFACTS_DIR, { recursive: true });
      const file = path.join(ARTIFACTS_DIR, `console-payouts-${width}.csv`);
      await download.saveAs(file);
      expect(download.suggestedFilename()).toMatch(/\.csv$/);
      const rows = parse(readFileSync(file, 'utf8'), { bom: true, columns: true, record_delimiter: '\r\n' }) as Record<
        string,
        string
      >[];
      expect(rows.find((r) => r['Payout id'] === payout.id)).toMatchObject({
        'Recipient email': author.email,
        'Recipient name': name,
        Status: 'pending',
        Currency: 'usd',
      });

      // The row opens the payout's page, which shows the same, and marks it paid behind its dialog.
      // (The recipient's name in a desktop row links to their page; the rest of the row opens the payout.)
      await row.getByText(money(amount)).click();
      await page.waitForURL(new RegExp(`#/payouts/${payout.id}/show`));
      const shown = page.locator('#main-content');
      await shown.getByText(money(amount)).waitFor();
      await expectOnScreen(
        width,
        'console-payout',
        shown.getByText(name),
        shown.getByText(money(amount)),
        shown.getByText('Pending'),
      );
      await page.getByRole('button', { name: 'Mark paid' }).click();
      await dialog().getByRole('heading', { name: 'Mark paid' }).waitFor();
      await dialog().getByLabel('Reference (e.g. the bank transfer id)').fill(`BANK-${width}`);
      await expectOnScreen(width, 'console-payout-mark-paid', dialog().getByRole('button', { name: 'Mark paid' }));
      await dialog().getByRole('button', { name: 'Mark paid' }).click();
      await page.getByText('Payout marked paid').waitFor();
      await shown.getByText('Paid', { exact: true }).first().waitFor();
      expect(await db('payouts').where({ id: payout.id }).first()).toMatchObject({
        status: 'paid',
        reference: `BANK-${width}`,
      });

      // The balances, from the menu (behind the app bar's button on a phone): paid, nothing left.
      if (width < 600) await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('menuitem', { name: 'Payout balances' }).click();
      const balance = page.locator(width < 600 ? 'li' : 'tr').filter({ has: page.getByRole('link', { name }) });
      await balance.waitFor();
      await expectOnScreen(
        width,
        'console-payout-balances',
        balance.getByRole('link', { name }),
        balance.getByText(money(amount)).first(),
        balance.getByText('$0.00').first(),
      );
      // Earned, clawed back, paid, in payouts, balance, payable: in the table's order, or balance and payable first.
      const amounts = await balance.getByText(/^\$/).allInnerTexts();
      expect(amounts).toEqual(
        width < 600
          ? ['$0.00', '$0.00', money(amount), '$0.00', money(amount), '$0.00']
          : [money(amount), '$0.00', money(amount), '$0.00', '$0.00', '$0.00'],
      );
      // The recipient's name leads to their page.
      await balance.getByRole('link', { name }).click();
      await page.waitForURL(new RegExp(`#/users/${author.id}/show`));
    },
  );
});
