import { describe, expect, it } from 'vitest';
import { checkScreen, signedInContext, useDemoSite } from '../support/browser';

/**
 * A course in instalments on the storefront (docs/domain.md §23): the demo's TypeScript Pro offers three monthly
 * payments beside its one-time price; the first is paid at the provider's page, and the Subscriptions page counts
 * the instalments paid, with no way to cancel, and offers a new card when one fails. Each screen is checked at 1280
 * and 390 px.
 */

describe('a payment plan on the storefront (Chromium)', () => {
  const site = useDemoSite();

  it('offers 3 payments beside the price, pays the first and counts the next', async () => {
    const { browser, baseUrl, db } = site();
    const email = 'instalments@example.com';
    const context = await signedInContext(browser, baseUrl, db, ['learner'], email);
    const page = await context.newPage();

    await page.goto(`${baseUrl}/products/typescript-pro`);
    const buy = page.getByRole('region', { name: 'Buy this course' });
    // The one-time price is still bought as before; the plan sits under it, priced as the course is: the demo's
    // running sale (20 %, once) takes its part off the first payment.
    await buy.getByRole('button', { name: /^Buy/ }).first().waitFor();
    await buy.getByText('3 payments: $55.20, then 2 of $69.00').waitFor();
    await checkScreen(page, 'storefront-payment-plan-buy', { axe: true });

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
    await checkScreen(page, 'storefront-payment-plan-list', { axe: true });

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
    await checkScreen(page, 'storefront-payment-plan-failed');
    await context.close();
  });
});
