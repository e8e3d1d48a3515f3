import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ContentResource } from '../support/models';
import { lastEmailTo } from '../support/outbox';
import { checkScreen, signedInContext, useDemoSite } from '../support/browser';

/**
 * The Billing page when a renewal fails (docs/domain.md §22): the failed payment's email, its link to the Billing
 * page with its banner and the amount due now, the card fixed on the provider's card page, the retry paid and the
 * courses open; and a switch to yearly with its prorated charge shown line by line before it is confirmed, priced
 * again when it changed meanwhile. Each screen is checked at 1280 and 390 px.
 */

/** Where `locator` sits on the page. */
const boxOf = async (locator: Locator) => (await locator.boundingBox())!;

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

  it("a failed renewal's email leads to the Billing page: payment due now, the card fixed and the payment taken", async () => {
    const { browser, baseUrl, db } = site();
    const email = 'billing-past-due@example.com';
    const context = await signedInContext(browser, baseUrl, db, ['learner'], email);
    const page = await context.newPage();
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

    // The link lands on the Billing page: the banner says what happened and what to do, the status line what is due.
    await page.goto(failed.link!.toString());
    const item = page.locator('li.subscription');
    const banner = item.getByRole('region', { name: 'Payment failed' });
    await banner.getByText('Your last payment failed.').waitFor();
    await item.getByText('Payment failed', { exact: true }).waitFor();
    await item.getByText('Payment due now: $29.00', { exact: true }).waitFor();
    expect(await item.getByText(/Renews on|Next charge/).count()).toBe(0);
    expect(await lessonOpens(page, baseUrl)).toBe(true); // within the grace
    await page.goto(failed.link!.toString());
    await banner.waitFor();
    await checkScreen(page, 'storefront-billing-past-due', { axe: true });

    // The provider's card page: a card that works pays the renewal at once and comes back here.
    await banner.getByRole('button', { name: 'Update card' }).click();
    await page.waitForURL(/\/test-provider\/subscriptions\/[^/]+\/card$/);
    await page.getByText('The card on file was declined.').waitFor();
    await page.getByRole('button', { name: 'Use a card that works' }).click();
    await page.waitForURL((url) => url.pathname === '/subscriptions');
    await item.getByText('Active', { exact: true }).waitFor();
    await item.getByText(/^Renews on /).waitFor();
    expect(await banner.count()).toBe(0);
    expect(await subscriptionOf(email)).toMatchObject({ status: 'active' });
    expect(await lessonOpens(page, baseUrl)).toBe(true);
    await context.close();
  });

  it('switches a monthly membership to yearly: the charge shown line by line, priced again when it changed', async () => {
    const { browser, baseUrl, db } = site();
    const email = 'billing-switch@example.com';
    const context = await signedInContext(browser, baseUrl, db, ['learner'], email);
    const page = await context.newPage();
    await subscribe(page, baseUrl, 'Monthly');
    await page.goto(`${baseUrl}/subscriptions`);
    const item = page.locator('li.subscription');
    await item.getByText('Plan: billed monthly').waitFor();
    await item.getByText(/^Next charge: \$29\.00 on /).waitFor();
    await item.getByRole('button', { name: 'Switch to yearly' }).click();
    const ask = item.getByRole('group', { name: 'Switch to yearly' });
    await ask.getByText(/\$290\.00 each year\. You are charged \$2\d\d\.\d\d now/).waitFor();
    const dueNow = ask.locator('.switch-charge dd').last();
    const quoted = await dueNow.textContent();
    await checkScreen(page, 'storefront-billing-switch', { axe: true });

    // The buttons sit in one row at their own width at 1280 px, and wrap within the screen at 390 px.
    const confirm = ask.getByRole('button', { name: 'Confirm the switch' });
    const keep = ask.getByRole('button', { name: 'Keep monthly' });
    const [confirmBox, keepBox, row] = await Promise.all([boxOf(confirm), boxOf(keep), boxOf(ask.locator('.actions'))]);
    const middle = (box: { y: number; height: number }) => box.y + box.height / 2;
    expect(Math.abs(middle(confirmBox) - middle(keepBox))).toBeLessThan(2);
    expect(confirmBox.width).toBeLessThan(row.width / 2);
    await page.setViewportSize({ width: 390, height: 844 });
    for (const box of await Promise.all([boxOf(confirm), boxOf(keep)]))
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect((await boxOf(confirm)).width).toBeLessThan(390);
    await page.setViewportSize({ width: 1280, height: 800 });

    // The provider bills the next month meanwhile: the quote shown is stale, so the switch is priced again, not made.
    const { id } = await subscriptionOf(email);
    const renewed = await fetch(`${baseUrl}/test-provider/subscriptions/${id}/renew`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ outcome: 'paid' }),
    });
    expect(renewed.status).toBe(200);
    await confirm.click();
    await item.getByText('What the switch costs has changed: check the amount below and confirm again.').waitFor();
    await expect.poll(() => dueNow.textContent()).not.toBe(quoted);
    const charges = () => db('merchantCharges as c').join('users as u', 'u.id', 'c.userId').where('u.email', email);
    expect(await charges()).toHaveLength(2); // the first month and its renewal: nothing for the refused switch
    const requoted = Number((await dueNow.textContent())!.replace(/[^0-9]/g, ''));

    await confirm.click();
    await item.getByText('Plan: billed yearly').waitFor();
    await item.getByText(/^Next charge: \$290\.00 on /).waitFor();
    const yearly = (await db('prices')
      .join('products', 'products.id', 'prices.productId')
      .where({ 'products.slug': 'all-access', 'prices.billingInterval': 'year', 'prices.status': 'active' })
      .first('prices.id')) as { id: string };
    expect((await subscriptionOf(email)).priceId).toBe(yearly.id);
    const last = await charges().orderBy('c.createdAt', 'desc').first('c.amount');
    expect(last.amount).toBe(requoted);
    await context.close();
  });
});
