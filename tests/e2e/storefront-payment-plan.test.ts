import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { keepScreenshot, seriousViolations, signedInContext, useDemoSite, waitForStillness } from '../support/browser';

/**
 * A course in instalments on the storefront (docs/domain.md §23): the demo's TypeScript Pro offers three monthly
 * payments beside its one-time price; the first is paid at the provider's page, and the Subscriptions page counts
 * the instalments paid, with no way to cancel, and offers a new card when one fails.
 */

const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
] as const;

/** Nothing scrolls sideways at the page's width. */
async function fitsWidth(page: Page, width: number) {
  await waitForStillness(page);
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
}

describe('a payment plan on the storefront (Chromium)', () => {
  const site = useDemoSite();

  for (const viewport of WIDTHS) {
    it(`offers 3 payments beside the price, pays the first and counts the next at ${viewport.width} px`, async () => {
      const { browser, baseUrl, db } = site();
      const email = `instalments-${viewport.width}@example.com`;
      const context = await signedInContext(browser, baseUrl, db, ['learner'], email);
      const page = await context.newPage();
      await page.setViewportSize(viewport);

      await page.goto(`${baseUrl}/products/typescript-pro`);
      const buy = page.getByRole('region', { name: 'Buy this course' });
      // The one-time price is still bought as before; the plan sits under it.
      await buy.getByRole('button', { name: /^Buy/ }).first().waitFor();
      await buy.getByText('3 payments of $69.00').waitFor();
      await fitsWidth(page, viewport.width);
      if (viewport.width === 1280) expect(await seriousViolations(page)).toEqual([]);
      await keepScreenshot(page, `storefront-payment-plan-buy-${viewport.width}`);

      await buy.getByRole('button', { name: 'Pay in 3 instalments' }).click();
      await page.waitForURL(/\/test-provider\/subscriptions\//);
      await page.getByText('$69.00 / month').waitFor();
      await page.getByRole('button', { name: 'Subscribe' }).click();
      await page.waitForURL((url) => url.pathname === '/learning');
      await page.getByText('TypeScript Fundamentals').first().waitFor();

      await page.goto(`${baseUrl}/subscriptions`);
      const item = page.locator('li.subscription');
      await item.getByRole('link', { name: 'TypeScript Pro' }).waitFor();
      await item.getByText('1 of 3 paid').waitFor();
      await item.getByText(/^Next payment on /).waitFor();
      expect(await item.getByRole('button', { name: 'Cancel at period end' }).count()).toBe(0);
      await fitsWidth(page, viewport.width);
      if (viewport.width === 1280) expect(await seriousViolations(page)).toEqual([]);
      await keepScreenshot(page, `storefront-payment-plan-list-${viewport.width}`);

      // The next month's instalment, as the provider bills it.
      const sub = await db('subscriptions as s')
        .join('users as u', 'u.id', 's.userId')
        .where('u.email', email)
        .first('s.id');
      const renewed = await fetch(`${baseUrl}/test-provider/subscriptions/${sub.id}/renew`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ outcome: 'paid' }),
      });
      expect(renewed.status).toBe(200);
      await page.reload();
      await page.locator('li.subscription').getByText('2 of 3 paid').waitFor();

      // The last one fails: the course stays open for now, and the card can be replaced from here.
      const failed = await fetch(`${baseUrl}/test-provider/subscriptions/${sub.id}/renew`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ outcome: 'failed' }),
      });
      expect(failed.status).toBe(200);
      await page.reload();
      const plan = page.locator('li.subscription');
      await plan.getByText('Your last instalment failed.', { exact: false }).waitFor();
      await plan.getByRole('button', { name: 'Update card' }).waitFor();
      await fitsWidth(page, viewport.width);
      await context.close();
    });
  }
});
