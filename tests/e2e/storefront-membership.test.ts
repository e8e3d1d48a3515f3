import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ContentResource } from '../support/models';
import { keepScreenshot, seriousViolations, signedInContext, useDemoSite, waitForStillness } from '../support/browser';

/**
 * Joining the demo's All access membership on the storefront (docs/domain.md §22): its price each month and
 * Subscribe, the provider's page and back, a course's lesson open, and the Subscriptions page linked from the account
 * menu, where it is cancelled at its period's end and resumed.
 */

const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
] as const;

/** A link of the account menu: on a phone it is behind the Menu button. */
async function openAccountLink(page: Page, name: string) {
  const menu = page.getByRole('banner').getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name }).click();
}

/** Nothing scrolls sideways at the page's width. */
async function fitsWidth(page: Page, width: number) {
  await waitForStillness(page);
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
}

describe('a membership on the storefront (Chromium)', () => {
  const site = useDemoSite();

  it('asks a signed-out visitor to sign in before subscribing', async () => {
    const { browser, baseUrl } = site();
    const context = await browser.newContext({ viewport: WIDTHS[0] });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/products/all-access`);
    const buy = page.getByRole('region', { name: 'Buy this course' });
    await buy.getByText('$29.00 / month').waitFor();
    // No one-time price is quoted for a membership.
    expect(await buy.getByRole('button', { name: /^Buy/ }).count()).toBe(0);
    await buy.getByRole('button', { name: 'Subscribe' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirectTo')).toBe('/products/all-access');
    await context.close();
  });

  for (const viewport of WIDTHS) {
    it(`subscribes, opens a lesson, cancels at the period's end and resumes at ${viewport.width} px`, async () => {
      const { browser, baseUrl, db } = site();
      const email = `member-${viewport.width}@example.com`;
      const context = await signedInContext(browser, baseUrl, db, ['learner'], email);
      const page = await context.newPage();
      await page.setViewportSize(viewport);

      // No subscription yet: the account menu does not link the page.
      await page.goto(`${baseUrl}/products/all-access`);
      const buy = page.getByRole('region', { name: 'Buy this course' });
      await buy.getByText('$29.00 / month').waitFor();
      await buy.getByText('Renews until you cancel').waitFor();
      expect(
        await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Subscriptions' }).count(),
      ).toBe(0);
      await fitsWidth(page, viewport.width);
      if (viewport.width === 1280) expect(await seriousViolations(page)).toEqual([]);
      await keepScreenshot(page, `storefront-membership-buy-${viewport.width}`);

      // The provider's page, left without subscribing: back on the product page, nothing started.
      await buy.getByRole('button', { name: 'Subscribe' }).click();
      await page.waitForURL(/\/test-provider\/subscriptions\//);
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.waitForURL((url) => url.pathname === '/products/all-access');
      await buy.getByRole('button', { name: 'Subscribe' }).waitFor();

      // Subscribing this time: the provider's page sends the learner to My learning.
      await buy.getByRole('button', { name: 'Subscribe' }).click();
      await page.waitForURL(/\/test-provider\/subscriptions\//);
      await page.getByRole('button', { name: 'Subscribe' }).click();
      await page.waitForURL((url) => url.pathname === '/learning');
      await page.getByRole('heading', { level: 1, name: 'My learning' }).waitFor();
      await page.getByText('TypeScript Fundamentals').first().waitFor();

      // A paid lesson of the catalog opens.
      const course = (await ContentResource.query(db)
        .where({ type: 'course' })
        .whereRaw(`fields->>'title' = ?`, ['TypeScript Fundamentals'])
        .first())!;
      const lesson = (await ContentResource.query(db)
        .where({ type: 'lesson' })
        .whereRaw(`fields->>'title' = ?`, ['Arrays and tuples'])
        .first())!;
      await page.goto(`${baseUrl}/courses/${course.fields.slug}/lessons/${lesson.fields.slug}`);
      await page.getByText('Lists of one type').first().waitFor();
      await page.getByRole('button', { name: 'Mark complete' }).waitFor();
      expect(await page.getByRole('heading', { name: 'Sign in to study this lesson' }).count()).toBe(0);

      // The account menu now links the subscriptions.
      await openAccountLink(page, 'Subscriptions');
      await page.waitForURL((url) => url.pathname === '/subscriptions');
      await page.getByRole('heading', { level: 1, name: 'Subscriptions' }).waitFor();
      const item = page.locator('li.subscription');
      await item.getByRole('link', { name: 'All access' }).waitFor();
      await item.getByText('Active').waitFor();
      await item.getByText(/^Renews on /).waitFor();
      await fitsWidth(page, viewport.width);
      if (viewport.width === 1280) expect(await seriousViolations(page)).toEqual([]);
      await keepScreenshot(page, `storefront-subscriptions-${viewport.width}`);

      await item.getByRole('button', { name: 'Cancel at period end' }).click();
      await item.getByText(/^Ends on /).waitFor();
      const row = await db('subscriptions as s')
        .join('users as u', 'u.id', 's.userId')
        .where('u.email', email)
        .first('s.cancelAtPeriodEnd');
      expect(row.cancelAtPeriodEnd).toBe(true);
      // Still open until then. The billing below reloads for the new state and moves the buttons as it arrives: the
      // click waits for it, or it could land on the card's button.
      await item.getByText('Loading the billing…').waitFor({ state: 'detached' });
      await waitForStillness(page);
      await item.getByRole('button', { name: 'Resume' }).click();
      await item.getByText(/^Renews on /).waitFor();
      await item.getByRole('button', { name: 'Cancel at period end' }).waitFor();
      // The page read again says the same.
      await page.reload();
      await page
        .locator('li.subscription')
        .getByText(/^Renews on /)
        .waitFor();

      // The membership's name leads back to its page, where subscribing again is refused in words.
      await page.locator('li.subscription').getByRole('link', { name: 'All access' }).click();
      await page.waitForURL((url) => url.pathname === '/products/all-access');
      await buy.getByRole('button', { name: 'Subscribe' }).click();
      await buy.getByRole('alert').getByText('You are already subscribed to this membership.').waitFor();
      await buy.getByRole('alert').getByRole('link', { name: 'Your subscriptions' }).click();
      await page.waitForURL((url) => url.pathname === '/subscriptions');
      await context.close();
    });
  }
});
