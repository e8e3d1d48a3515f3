import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, createRevenueSplit, createUser } from '../../seeds/factories';
import { runSeeds } from '../../seeds/run';
import { buyThroughSite, keepScreenshot, signedInContext, useDemoSite } from '../support/browser';

const DAY_MS = 86_400_000;
/** "$1,234.56": how the console writes cents. */
const money = (cents: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);

describe('payouts in the console: a run, a payout marked paid, the balances (Chromium)', () => {
  const site = useDemoSite((db) => runSeeds(db, { demo: false }));
  let context: BrowserContext;
  let page: Page;
  let earned = 0;

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
});
