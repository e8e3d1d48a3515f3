import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { checkScreen, signedInContext, useDemoSite } from '../support/browser';

/**
 * A switch that waits for the end of the period paid (docs/domain.md §22): yearly to monthly on the Billing page, the
 * page saying what it switches to and when with nothing charged, and Keep yearly undoing it.
 */
describe('a switch waiting for the period’s end on the Billing page (Chromium)', () => {
  const site = useDemoSite();

  async function subscribeYearly(page: Page, baseUrl: string) {
    await page.goto(`${baseUrl}/products/all-access`);
    const buy = page.getByRole('region', { name: 'Buy this course' });
    await buy
      .getByRole('group', { name: 'Billing' })
      .getByRole('radio', { name: /^Yearly/ })
      .check();
    await buy.getByRole('button', { name: 'Subscribe' }).click();
    await page.waitForURL(/\/test-provider\/subscriptions\//);
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.waitForURL((url) => url.pathname === '/learning');
  }

  it('switches yearly to monthly from the year’s end, shows it waiting, and keeps yearly when undone', async () => {
    const { browser, baseUrl, db } = site();
    const email = 'billing-waiting-switch@example.com';
    const context = await signedInContext(browser, baseUrl, db, ['learner'], email);
    const page = await context.newPage();
    await subscribeYearly(page, baseUrl);
    const charged = async () =>
      (
        await db('merchantCharges as c')
          .join('users as u', 'u.id', 'c.userId')
          .where('u.email', email)
          .select('c.amount')
      ).map((c: { amount: number }) => c.amount);

    // The year paid (at the demo's running sale): nothing more is charged by what follows.
    const paid = await charged();
    expect(paid).toHaveLength(1);
    await page.goto(`${baseUrl}/subscriptions`);
    const item = page.locator('li.subscription');
    await item.getByText('Plan: billed yearly').waitFor();
    await item.getByRole('button', { name: 'Switch to monthly' }).click();
    const ask = item.getByRole('group', { name: 'Switch to monthly' });
    await ask.getByText(/Nothing is charged now/).waitFor();
    await ask.getByRole('button', { name: 'Confirm the switch' }).click();

    // Still the year paid for; the month waits for its end, said with its day and price, and can be undone.
    const waiting = item.getByRole('group', { name: 'Switches to monthly' });
    await waiting.getByText(/^Switches to monthly on .+: \$29\.00 each month from then\./).waitFor();
    await item.getByText('Plan: billed yearly').waitFor();
    await item.getByText(/^Next charge: \$29\.00 on /).waitFor();
    expect(await item.getByRole('button', { name: 'Switch to monthly' }).count()).toBe(0);
    expect(await charged()).toEqual(paid);
    await checkScreen(page, 'storefront-billing-waiting-switch', { axe: true });

    await waiting.getByRole('button', { name: 'Keep yearly' }).click();
    await item.getByRole('button', { name: 'Switch to monthly' }).waitFor();
    await item.getByText(/^Next charge: \$290\.00 on /).waitFor();
    expect(await waiting.count()).toBe(0);
    expect(await charged()).toEqual(paid);
    await context.close();
  });
});
