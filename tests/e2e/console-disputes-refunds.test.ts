import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from '../../seeds/factories';
import { runSeeds } from '../../seeds/run';
import {
  ARTIFACTS_DIR,
  CONSOLE_WIDTHS,
  buyThroughSite,
  checkScreen,
  chooseOption,
  keepScreenshot,
  signedInContext,
  useDemoSite,
} from '../support/browser';

/** "$1,234.56": how the console writes cents. */
const money = (cents: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);
const HOUR_MS = 3_600_000;

describe('refund reasons, the refunds report and the disputes list in the console (Chromium)', () => {
  const site = useDemoSite((db) => runSeeds(db, { demo: false }));
  let context: BrowserContext;
  let page: Page;
  let refundId: string;
  let paid: number;
  const disputes: { identifier: string; dueBy: Date; buyer: string }[] = [];

  beforeAll(async () => {
    const { db, baseUrl } = site();
    const course = await createProduct(db, { name: 'Reasons Course', unitAmount: 8_000 });
    refundId = await buyThroughSite(baseUrl, course.id, 'refund.reason@example.com');
    paid = (await db('purchases').where({ id: refundId }).first()).totalAmount;
    // Two chargebacks as the provider reports them (the Stripe webhook's path is the API tests'): one whose evidence
    // was due an hour ago, one due in a day and a half.
    for (const [buyer, dueBy] of [
      ['late.dispute@example.com', new Date(Date.now() - HOUR_MS)],
      ['soon.dispute@example.com', new Date(Date.now() + 36 * HOUR_MS)],
    ] as const) {
      const purchaseId = await buyThroughSite(baseUrl, course.id, buyer);
      const purchase = await db('purchases').where({ id: purchaseId }).first();
      const charge = await db('merchantCharges').where({ id: purchase.merchantChargeId }).first();
      const identifier = `dp_console_${disputes.length + 1}`;
      await db('merchantDisputes').insert({
        merchantAccountId: charge.merchantAccountId,
        identifier,
        merchantChargeId: charge.id,
        amount: charge.amount,
        reason: 'fraudulent',
        status: 'open',
        evidenceDueBy: dueBy,
      });
      disputes.push({ identifier, dueBy, buyer });
    }
    context = await signedInContext(site().browser, baseUrl, db, ['support']);
    page = await context.newPage();
  });
  afterAll(() => context?.close());

  const dialog = () => page.getByRole('dialog');
  /** The page from its top, nothing focused: a full-page screenshot then shows it as it opens. */
  const atTop = (p: Page) => p.evaluate('window.scrollTo(0, 0); document.activeElement?.blur()');

  it('refunds with a reason chosen in the dialog, then counts it in the refunds report and its CSV', async () => {
    const { baseUrl, db } = site();
    await page.goto(`${baseUrl}/admin/#/purchases/${refundId}/show/payment`);
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await dialog().getByRole('heading', { name: 'Refund purchase' }).waitFor();
    // No reason: refused in the dialog, before any confirmation.
    await dialog().getByRole('button', { name: 'Continue' }).click();
    await dialog().getByText('Choose why the money goes back.').waitFor();
    // "Other" needs a note.
    await chooseOption(page, 'Reason', 'Other', { exact: true });
    await dialog().getByRole('button', { name: 'Continue' }).click();
    await dialog().getByText('Say why, in a few words (at least 3 characters).').waitFor();
    await keepScreenshot(page, 'console-refund-reason');
    expect(await dialog().getByRole('button', { name: 'Confirm' }).count()).toBe(0);
    await chooseOption(page, 'Reason', 'Duplicate purchase');
    await dialog().getByRole('button', { name: 'Continue' }).click();
    await dialog()
      .getByText(`Refund ${money(paid)} to refund.reason@example.com? This cannot be undone.`)
      .waitFor();
    await dialog().getByRole('button', { name: 'Confirm' }).click();
    await page.getByText(`Refunded ${money(paid)} to refund.reason@example.com.`, { exact: false }).waitFor();
    await dialog().waitFor({ state: 'detached' });
    // The refund's reason on the purchase's payment tab.
    await page.getByRole('cell', { name: 'Duplicate purchase' }).waitFor();
    const purchase = await db('purchases').where({ id: refundId }).first();
    expect(await db('merchantRefunds').where({ merchantChargeId: purchase.merchantChargeId })).toEqual([
      expect.objectContaining({ reasonCode: 'duplicate', reason: null, amount: paid, status: 'succeeded' }),
    ]);
    expect(purchase).toMatchObject({ status: 'Refunded', statusReason: 'Duplicate purchase' });

    // The report, from the menu: this month's refunds by reason and by product.
    await page.getByRole('menuitem', { name: 'Refunds report' }).click();
    await page.getByRole('heading', { name: 'Refunds', level: 1 }).waitFor();
    const totals = page.getByRole('region', { name: 'Totals' });
    await totals.getByText(money(paid)).waitFor();
    const byReason = page.getByRole('figure', { name: 'By reason' });
    await byReason.locator('svg').first().waitFor();
    await byReason.locator('..').getByText('Show the figures as a table').click();
    const reasonRow = page.getByRole('table', { name: 'By reason' }).getByRole('row', { name: /Duplicate purchase/ });
    await reasonRow.getByRole('cell', { name: money(paid) }).waitFor();
    await reasonRow.getByRole('cell', { name: '1', exact: true }).waitFor();
    const byProduct = page.getByRole('figure', { name: 'By product' });
    await byProduct.locator('..').getByText('Show the figures as a table').click();
    await page
      .getByRole('table', { name: 'By product' })
      .getByRole('row', { name: /Reasons Course/ })
      .getByRole('cell', { name: money(paid) })
      .waitFor();
    await atTop(page);
    await checkScreen(page, 'console-refunds-report', { widths: CONSOLE_WIDTHS });

    // Its CSV: the period's refunds with reason, product, amount and who asked.
    const button = page.getByRole('button', { name: 'Export the refunds (CSV)' });
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    expect(download.suggestedFilename()).toMatch(/^refunds-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    const file = path.join(ARTIFACTS_DIR, 'console-refunds-report.csv');
    await download.saveAs(file);
    await page.getByText(`Saved ${download.suggestedFilename()} (1 rows).`).waitFor();
    const rows = parse(readFileSync(file, 'utf8'), { bom: true, columns: true }) as Record<string, string>[];
    const { requestedById } = await db('merchantRefunds')
      .where({ merchantChargeId: purchase.merchantChargeId })
      .first();
    const support = await db('users').where({ id: requestedById }).first('email');
    expect(rows).toEqual([
      expect.objectContaining({
        'Reason code': 'duplicate',
        Reason: 'Duplicate purchase',
        Product: 'Reasons Course',
        Purchase: refundId,
        'Buyer email': 'refund.reason@example.com',
        'Amount (cents)': String(paid),
        'Requested by': support.email,
      }),
    ]);
  });

  it('lists open disputes by their evidence due date, overdue and due soon marked, with a chart of the weeks', async () => {
    await page.goto(`${site().baseUrl}/admin/#/merchant-disputes`);
    const rows = page.locator('.RaDatagrid-tbody tr');
    await rows.first().waitFor();
    await page.getByText('1-2 of 2').waitFor();
    // The most urgent first: the overdue one, then the one due soon; each with its buyer and its due date.
    const dueText = (date: Date) => date.toLocaleDateString('en-US');
    const shown = async () =>
      (await rows.allInnerTexts()).map((text) => ({
        overdue: text.includes('Overdue'),
        dueSoon: text.includes('Due soon'),
        buyer: disputes.find((dispute) => text.includes(dispute.buyer))?.buyer,
        dueSoonOn: text.includes(dueText(disputes[1]!.dueBy)),
      }));
    await expect.poll(shown).toEqual([
      { overdue: true, dueSoon: false, buyer: disputes[0]!.buyer, dueSoonOn: expect.any(Boolean) },
      { overdue: false, dueSoon: true, buyer: disputes[1]!.buyer, dueSoonOn: true },
    ]);
    // What is at stake, and the disputes opened per week.
    const stake = page.getByRole('region', { name: 'At stake now' });
    await expect.poll(() => stake.innerText()).toContain('Evidence overdue');
    await stake
      .getByRole('figure', { name: /Disputes opened per week/ })
      .locator('svg')
      .first()
      .waitFor();
    await atTop(page);
    await checkScreen(page, 'console-disputes', { widths: CONSOLE_WIDTHS });
  });
});
