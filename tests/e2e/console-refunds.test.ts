import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { Product, Purchase } from '../support/models';
import { runSeeds } from '../../seeds/run';
import { buyThroughSite, keepScreenshot, signedInContext, useDemoSite } from '../support/browser';

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

describe('refunds and bans in the console (Chromium)', () => {
  const site = useDemoSite((db) => runSeeds(db, { demo: true }));
  let refundId: string;
  let banId: string;
  let paid: number;

  beforeAll(async () => {
    const product = (await Product.query(site().db).findOne({ key: 'typescript-fundamentals' }))!;
    refundId = await buyThroughSite(site().baseUrl, product.id, 'refund.me@example.com');
    banId = await buyThroughSite(site().baseUrl, product.id, 'ban.me@example.com');
    paid = (await chargeOf(refundId)).amount;
    expect(paid).toBeGreaterThan(2000);
  });

  async function chargeOf(purchaseId: string) {
    const purchase = (await Purchase.query(site().db).findById(purchaseId))!;
    return site().db('merchantCharges').where({ id: purchase.merchantChargeId }).first();
  }

  const dialog = (page: Page) => page.getByRole('dialog');
  /** Picks the refund's reason in the dialog's select. */
  async function chooseReason(page: Page, label: string) {
    await dialog(page).getByRole('combobox', { name: 'Reason' }).click();
    await page.getByRole('option', { name: label }).click();
  }
  const refundedFigure = (page: Page) =>
    page.getByRole('table', { name: 'Charge amounts' }).getByRole('row', { name: /Refunded/ });

  it('lets support refund part of a purchase, then the rest, through the provider', async () => {
    const context = await signedInContext(site().browser, site().baseUrl, site().db, ['support']);
    const page = await context.newPage();
    const support = (await site()
      .db('users')
      .whereRaw(`roles @> '{support}'`)
      .whereNot({ email: 'support@example.com' })
      .first())!; // the one signed in
    await page.goto(`${site().baseUrl}/admin/#/purchases/${refundId}/show/payment`);
    await refundedFigure(page).getByText('$0.00').waitFor();
    expect(await page.getByRole('button', { name: 'Ban', exact: true }).count()).toBe(0); // admins only

    // Partial: too much first — refused on the amount input before any confirmation (the dialog knows the charge).
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await dialog(page).getByRole('heading', { name: 'Refund purchase' }).waitFor();
    await dialog(page)
      .getByRole('radio', { name: `Full refund (amount left: ${dollars(paid)})` })
      .waitFor();
    await dialog(page).getByRole('radio', { name: 'Partial refund' }).check();
    await dialog(page).getByRole('button', { name: 'Continue' }).click();
    // Nothing typed: the dialog asks for an amount and a reason before any confirmation.
    await dialog(page).getByText('Enter an amount in dollars, e.g. 12.34.').waitFor();
    await dialog(page).getByText('Choose why the money goes back.').waitFor();
    await dialog(page).getByLabel('Amount to refund (in dollars)').fill('500');
    await chooseReason(page, 'Course not as described');
    await dialog(page).getByLabel('Note').fill('Course did not match the description');
    await dialog(page).getByRole('button', { name: 'Continue' }).click();
    await dialog(page)
      .getByText(`At most ${dollars(paid)} can still be refunded.`)
      .waitFor();
    expect(await dialog(page).getByRole('button', { name: 'Confirm' }).count()).toBe(0);
    expect(await dialog(page).getByLabel('Amount to refund (in dollars)').getAttribute('aria-invalid')).toBe('true');
    expect((await chargeOf(refundId)).refundAmount).toBe(0);

    await dialog(page).getByLabel('Amount to refund (in dollars)').fill('12.34');
    await dialog(page).getByRole('button', { name: 'Continue' }).click();
    await dialog(page).getByText('Refund $12.34 to refund.me@example.com? This cannot be undone.').waitFor();
    await keepScreenshot(page, 'console-refund-confirm');
    await dialog(page).getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Refunded $12.34 to refund.me@example.com.').waitFor();
    await dialog(page).waitFor({ state: 'detached' });
    await refundedFigure(page).getByText('$12.34').waitFor();
    await page.getByRole('cell', { name: 'Course did not match the description' }).waitFor();

    let charge = await chargeOf(refundId);
    expect(charge.refundAmount).toBe(1234);
    expect((await Purchase.query(site().db).findById(refundId))!.status).toBe('Valid');
    expect(await site().db('merchantRefunds').where({ merchantChargeId: charge.id })).toEqual([
      expect.objectContaining({
        amount: 1234,
        reasonCode: 'not-as-described',
        reason: 'Course did not match the description',
        requestedById: support.id,
      }),
    ]);
    expect(
      (await site().db('testProviderSessions').where({ chargeIdentifier: charge.identifier }).first()).refunded,
    ).toBe(1234);

    // Full: what is left.
    const left = paid - 1234;
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    await dialog(page)
      .getByRole('radio', { name: `Full refund (amount left: ${dollars(left)})` })
      .check();
    await chooseReason(page, 'Requested by the customer');
    await dialog(page).getByLabel('Note').fill('Asked again: refund the rest');
    await dialog(page).getByRole('button', { name: 'Continue' }).click();
    await dialog(page)
      .getByText(`Refund ${dollars(left)} to refund.me@example.com? This cannot be undone.`)
      .waitFor();
    await dialog(page).getByRole('button', { name: 'Confirm' }).click();
    await page
      .getByText(`Refunded ${dollars(left)} to refund.me@example.com. The purchase is now refunded in full.`)
      .waitFor();
    await refundedFigure(page).getByText(dollars(paid)).waitFor();
    expect(await page.getByRole('button', { name: 'Refund', exact: true }).count()).toBe(0);
    await page.getByRole('tab', { name: 'Summary' }).click();
    await page.getByText('Refunded', { exact: true }).first().waitFor();
    await page.getByText('Asked again: refund the rest').waitFor();
    await keepScreenshot(page, 'console-purchase-refunded');

    charge = await chargeOf(refundId);
    expect(charge.refundAmount).toBe(paid);
    expect(await Purchase.query(site().db).findById(refundId)).toMatchObject({
      status: 'Refunded',
      statusReason: 'Requested by the customer: Asked again: refund the rest',
    });
    expect(
      (await site().db('merchantRefunds').where({ merchantChargeId: charge.id }).orderBy('createdAt')).map(
        (r) => r.amount,
      ),
    ).toEqual([1234, left]);
    expect(
      (await site().db('testProviderSessions').where({ chargeIdentifier: charge.identifier }).first()).refunded,
    ).toBe(paid);

    // Both refunds in the Payments section's list.
    await page.goto(`${site().baseUrl}/admin/#/merchant-refunds`);
    await page.getByText('1-2 of 2').waitFor();
    await page.getByRole('cell', { name: '$12.34' }).waitFor();
    await keepScreenshot(page, 'console-refunds');
    await context.close();
  });

  it('lets an admin ban a purchase, with a reason and a confirmation', async () => {
    const context = await signedInContext(site().browser, site().baseUrl, site().db, ['admin']);
    const page = await context.newPage();
    await page.goto(`${site().baseUrl}/admin/#/purchases/${banId}/show`);
    await page.getByRole('button', { name: 'Ban', exact: true }).click();
    await dialog(page).getByRole('heading', { name: 'Ban purchase' }).waitFor();
    await dialog(page).getByRole('button', { name: 'Continue' }).click();
    await dialog(page).getByText('Say why, in a few words (at least 3 characters).').waitFor();
    await dialog(page).getByLabel('Reason').fill('Shared the course videos publicly');
    await dialog(page).getByRole('button', { name: 'Continue' }).click();
    await dialog(page)
      .getByText('Ban the purchase of ban.me@example.com? Their access ends now. This cannot be undone.')
      .waitFor();
    await dialog(page).getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Banned the purchase of ban.me@example.com: their access has ended.').waitFor();
    await page.getByText('Shared the course videos publicly').waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Ban', exact: true }).count()).toBe(0);
    await keepScreenshot(page, 'console-purchase-banned');

    expect(await Purchase.query(site().db).findById(banId)).toMatchObject({
      status: 'Banned',
      statusReason: 'Shared the course videos publicly',
    });
    expect((await chargeOf(banId)).refundAmount).toBe(0); // a ban refunds nothing
    await context.close();
  });
});
