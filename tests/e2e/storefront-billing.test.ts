import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ContentResource } from '../support/models';
import { lastEmailTo } from '../support/outbox';
import { keepScreenshot, seriousViolations, signedInContext, useDemoSite, waitForStillness } from '../support/browser';

/**
 * The Billing page when a renewal fails (docs/domain.md §22): the failed payment's email, its link to the Billing
 * page with its banner, the card fixed on the provider's card page, the retry paid and the courses open; and a switch
 * to yearly with its prorated amount shown before it is confirmed.
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

describe('billing on the storefront (Chromium)', () => {
  const site = useDemoSite();

  /** Subscribes to the demo's All access through its page and the provider's: the subscription's row. */
  async function subscribe(page: Page, baseUrl: string, interval: 'Monthly' | 'Yearly') {
    await page.goto(`${baseUrl}/products/all-access`);
    const buy = page.getByRole('region', { name: 'Buy this course' });
    await buy
      .getByRole('group', { name: 'Billing' })
      .getByRole('radio', { name: new RegExp(`^${interval}`) })
      .check();
    await buy.getByRole('button', { name: 'Subscribe' }).click();
    await page.waitForURL(/\/test-provider\/subscriptions\//);
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.waitForURL((url) => url.pathname === '/learning');
  }
  const subscriptionOf = async (email: string) => {
    const { db } = site();
    return db('subscriptions as s')
      .join('users as u', 'u.id', 's.userId')
      .where('u.email', email)
      .first('s.id', 's.status', 's.priceId');
  };
  /** Whether a paid lesson of the catalog opens for the page's learner. */
  async function lessonOpens(page: Page, baseUrl: string): Promise<boolean> {
    const { db } = site();
    const course = (await ContentResource.query(db)
      .where({ type: 'course' })
      .whereRaw(`fields->>'title' = ?`, ['TypeScript Fundamentals'])
      .first())!;
    const lesson = (await ContentResource.query(db)
      .where({ type: 'lesson' })
      .whereRaw(`fields->>'title' = ?`, ['Arrays and tuples'])
      .first())!;
    await page.goto(`${baseUrl}/courses/${course.fields.slug}/lessons/${lesson.fields.slug}`);
    const open = page.getByRole('button', { name: 'Mark complete' });
    const closed = page.getByRole('heading', { name: /to study this lesson/ });
    await open.or(closed).first().waitFor();
    return open.isVisible();
  }

  for (const viewport of WIDTHS) {
    it(`a failed renewal's email leads to the Billing page, where the card is fixed and the payment taken, at ${viewport.width} px`, async () => {
      const { browser, baseUrl, db } = site();
      const email = `billing-${viewport.width}@example.com`;
      const context = await signedInContext(browser, baseUrl, db, ['learner'], email);
      const page = await context.newPage();
      await page.setViewportSize(viewport);
      await subscribe(page, baseUrl, 'Monthly');
      const { id } = await subscriptionOf(email);

      // The renewal fails at the provider: the learner is emailed the amount and a link to fix the card.
      const renewed = await fetch(`${baseUrl}/test-provider/subscriptions/${id}/renew`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ outcome: 'failed' }),
      });
      expect(renewed.status).toBe(200);
      const failed = await lastEmailTo(db, email);
      expect(failed.kind).toBe('subscription-payment-failed');
      expect(failed.textBody).toContain('$29.00');
      expect(failed.link!.toString()).toBe(`${baseUrl}/subscriptions`);

      // The link lands on the Billing page: the banner says what happened and what to do.
      await page.goto(failed.link!.toString());
      const item = page.locator('li.subscription');
      const banner = item.getByRole('region', { name: 'Payment failed' });
      await banner.getByText('Your last payment failed.').waitFor();
      await item.getByText('Payment failed', { exact: true }).waitFor();
      expect(await lessonOpens(page, baseUrl)).toBe(true); // within the grace
      await page.goto(failed.link!.toString());
      await banner.waitFor();
      await fitsWidth(page, viewport.width);
      expect(await seriousViolations(page)).toEqual([]);
      await keepScreenshot(page, `storefront-billing-past-due-${viewport.width}`);

      // The provider's card page: a card that works pays the renewal at once and comes back here.
      await banner.getByRole('button', { name: 'Update card' }).click();
      await page.waitForURL(/\/test-provider\/subscriptions\/[^/]+\/card$/);
      await page.getByText('The card on file was declined.').waitFor();
      await page.getByRole('button', { name: 'Use a card that works' }).click();
      await page.waitForURL((url) => url.pathname === '/subscriptions');
      await item.getByText('Active', { exact: true }).waitFor();
      expect(await banner.count()).toBe(0);
      expect(await subscriptionOf(email)).toMatchObject({ status: 'active' });
      expect(await lessonOpens(page, baseUrl)).toBe(true);
      await context.close();
    });
  }

  it('switches a monthly membership to yearly, the prorated charge shown before confirming', async () => {
    const { browser, baseUrl, db } = site();
    const email = 'billing-switch@example.com';
    const context = await signedInContext(browser, baseUrl, db, ['learner'], email);
    const page = await context.newPage();
    await page.setViewportSize(WIDTHS[1]);
    await subscribe(page, baseUrl, 'Monthly');
    await page.goto(`${baseUrl}/subscriptions`);
    const item = page.locator('li.subscription');
    await item.getByText('Plan: billed monthly').waitFor();
    await item.getByText(/^Next charge: \$29\.00 on /).waitFor();
    await item.getByRole('button', { name: 'Switch to yearly' }).click();
    const ask = item.getByRole('group', { name: 'Switch to yearly' });
    await ask.getByText(/\$290\.00 each year\. You are charged \$2\d\d\.\d\d now/).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await keepScreenshot(page, 'storefront-billing-switch-1280');
    await ask.getByRole('button', { name: 'Confirm the switch' }).click();
    await item.getByText('Plan: billed yearly').waitFor();
    await item.getByText(/^Next charge: \$290\.00 on /).waitFor();
    const yearly = (await db('prices')
      .join('products', 'products.id', 'prices.productId')
      .where({ 'products.slug': 'all-access', 'prices.billingInterval': 'year', 'prices.status': 'active' })
      .first('prices.id')) as { id: string };
    expect((await subscriptionOf(email)).priceId).toBe(yearly.id);
    await context.close();
  });
});
