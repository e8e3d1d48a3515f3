import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createCoupon } from '../../seeds/factories';
import { ContentResource } from '../support/models';
import { keepScreenshot, seriousViolations, signedInContext, useDemoSite, waitForStillness } from '../support/browser';

/**
 * A team membership on the storefront (docs/domain.md §22): All access subscribed for two seats with a coupon, the
 * invite link from the Billing page taken by a colleague who then studies a lesson, a third person told the seats are
 * full, and a seat added with its prorated charge shown before it is confirmed.
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

describe('a team membership on the storefront (Chromium)', () => {
  const site = useDemoSite();

  /** Opens a paid lesson of the catalog: whether it is open to the page's learner. */
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
    // Signed in but not holding it: the lesson's access notice.
    const closed = page.locator('#access-heading');
    await open.or(closed).first().waitFor();
    return open.isVisible();
  }

  for (const viewport of WIDTHS) {
    it(`subscribes two seats with a coupon, shares a seat and adds one at ${viewport.width} px`, async () => {
      const { browser, baseUrl, db } = site();
      const axe = viewport.width === 1280;
      const half = await createCoupon(db, { percentageDiscount: 0.5 });
      await db('coupons').where({ id: half.id }).update({ duration: 'repeating', durationPeriods: 3 });
      const owner = `team-owner-${viewport.width}@example.com`;
      const context = await signedInContext(browser, baseUrl, db, ['learner'], owner);
      const page = await context.newPage();
      await page.setViewportSize(viewport);

      // The buy box: two seats priced, a wrong code refused under its field, then the right one.
      await page.goto(`${baseUrl}/products/all-access`);
      const buy = page.getByRole('region', { name: 'Buy this course' });
      await buy.getByLabel('Seats').fill('2');
      await buy.getByText('$29.00 × 2 seats = $58.00 a month').waitFor();
      await buy.getByLabel('Coupon code').fill('NO-SUCH-CODE');
      await buy.getByRole('button', { name: 'Subscribe' }).click();
      const refused = buy.getByRole('alert');
      await refused.waitFor();
      expect(await refused.textContent()).toBe('There is no coupon with that code.');
      expect(await buy.getByLabel('Coupon code').getAttribute('aria-invalid')).toBe('true');
      await buy.getByLabel('Coupon code').fill(half.code!);
      // Applied: its price for both seats and how many months it lasts, before anything starts.
      await buy.getByRole('button', { name: 'Apply' }).click();
      await buy
        .getByText(
          `Coupon ${half.code!.toUpperCase()} applied: $29.00 a month (50% off) for the first 3 months, then $58.00.`,
        )
        .waitFor();
      await fitsWidth(page, viewport.width);
      if (axe) expect(await seriousViolations(page)).toEqual([]);
      await keepScreenshot(page, `storefront-team-membership-buy-${viewport.width}`);
      await buy.getByRole('button', { name: 'Subscribe' }).click();
      await page.waitForURL(/\/test-provider\/subscriptions\//);
      await page.getByRole('button', { name: 'Subscribe' }).click();
      await page.waitForURL((url) => url.pathname === '/learning');
      const sub = (await db('subscriptions as s')
        .join('users as u', 'u.id', 's.userId')
        .where('u.email', owner)
        .first('s.id', 's.quantity', 's.couponId')) as { id: string; quantity: number; couponId: string };
      expect(sub).toMatchObject({ quantity: 2, couponId: half.id });

      // The Billing page: the coupon's price for both seats, the seats, the invite link.
      await page.goto(`${baseUrl}/subscriptions`);
      const item = page.locator('li.subscription');
      await item.getByText(/^Next charge: \$29\.00 on /).waitFor();
      const seats = item.getByRole('region', { name: 'Team seats' });
      await seats.getByText('1 of 2 seats taken').waitFor();
      const link = await seats.getByLabel('Invite link').inputValue();
      expect(new URL(link).pathname).toMatch(/^\/membership-seats\/.{8,}/);
      await fitsWidth(page, viewport.width);
      if (axe) expect(await seriousViolations(page)).toEqual([]);

      // A colleague signs in through the link, takes the seat, lands in their courses and studies a lesson.
      const colleague = `team-member-${viewport.width}@example.com`;
      const theirs = await signedInContext(browser, baseUrl, db, ['learner'], colleague);
      const member = await theirs.newPage();
      await member.setViewportSize(viewport);
      expect(await lessonOpens(member, baseUrl)).toBe(false);
      await member.goto(link);
      await member.getByRole('heading', { level: 1, name: 'Take your seat' }).waitFor();
      await member.locator('.take-seat').getByText(colleague).waitFor();
      await fitsWidth(member, viewport.width);
      if (axe) expect(await seriousViolations(member)).toEqual([]);
      await keepScreenshot(member, `storefront-team-membership-take-${viewport.width}`);
      await member.getByRole('button', { name: 'Take this seat' }).click();
      await member.waitForURL((url) => url.pathname === '/learning');
      await member.getByRole('heading', { level: 1, name: 'My learning' }).waitFor();
      expect(await lessonOpens(member, baseUrl)).toBe(true);

      // A third person finds every seat taken, and the page's link leads to their learning.
      const late = await signedInContext(browser, baseUrl, db, ['learner'], `team-late-${viewport.width}@example.com`);
      const latePage = await late.newPage();
      await latePage.setViewportSize(viewport);
      await latePage.goto(link);
      await latePage.getByRole('button', { name: 'Take this seat' }).click();
      await latePage.getByRole('heading', { level: 1, name: 'Every seat is taken' }).waitFor();
      if (axe) expect(await seriousViolations(latePage)).toEqual([]);
      await latePage.getByRole('alert').getByRole('link', { name: 'My learning' }).click();
      await latePage.waitForURL((url) => url.pathname === '/learning');
      await late.close();

      // The owner adds a seat: its prorated charge first, then Confirm; the charge taken is the one shown.
      await page.reload();
      await seats.getByText('2 of 2 seats taken').waitFor();
      await seats.getByText(colleague).waitFor();
      await seats.getByLabel('Seats to add').fill('1');
      await seats.getByRole('button', { name: 'Add seats' }).click();
      const offer = seats.getByRole('group', { name: 'Confirm the added seats' });
      const shown = await offer.getByText(/charged now for the rest of this period/).textContent();
      const dueNow = /\$(\d+)\.(\d\d) charged now/.exec(shown ?? '');
      expect(dueNow, shown ?? '').not.toBeNull();
      const cents = Number(dueNow![1]) * 100 + Number(dueNow![2]);
      // Half of a month's seat, the month barely begun.
      expect(cents).toBeGreaterThan(1400);
      expect(cents).toBeLessThanOrEqual(1450);
      await offer.getByText('then $43.50 each period for every seat.').waitFor();
      await fitsWidth(page, viewport.width);
      if (axe) expect(await seriousViolations(page)).toEqual([]);
      await keepScreenshot(page, `storefront-team-membership-seats-${viewport.width}`);
      await offer.getByRole('button', { name: 'Confirm and pay' }).click();
      await seats.getByText('1 seat added.').waitFor();
      await seats.getByText('2 of 3 seats taken').waitFor();
      const charged = (await db('subscriptionPeriods as sp')
        .join('merchantCharges as c', 'c.id', 'sp.merchantChargeId')
        .where('sp.subscriptionId', sub.id)
        .orderBy('sp.periodStart', 'desc')
        .first('c.amount')) as { amount: number };
      expect(Math.abs(charged.amount - cents)).toBeLessThanOrEqual(1);
      await theirs.close();
      await context.close();
    });
  }
});
