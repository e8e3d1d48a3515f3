import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../api/src/db/connection';
import { sessions } from '../../api/src/identity/sign-in/sessions';
import { shownName } from '../../api/src/shared/shown-name';
import { createPurchase, createUser } from '../../seeds/factories';
import { checkScreen, payAndConfirm, useDemoSite } from '../support/browser';
import { Product } from '../support/models';

/** A browser context signed in as a new person with this email. */
async function signedInAs(browser: Browser, baseUrl: string, db: Db, email: string) {
  const user = await createUser(db, { email });
  const session = await sessions({ db, clock: { now: () => new Date() } }).create(db, user.id, 'browser test', 'email');
  const context = await browser.newContext({ locale: 'en-US' });
  await context.addCookies([
    { name: 'lp_session', value: session.token, url: baseUrl, httpOnly: true, sameSite: 'Lax' },
    { name: 'lp_csrf', value: session.csrfToken, url: baseUrl, sameSite: 'Lax' },
  ]);
  return { user, context, page: await context.newPage() };
}

describe("a gift's own page speaks of a gift (docs/domain.md §7, Chromium)", () => {
  const site = useDemoSite();

  it('leads the buyer to the gift from the thank-you page and My purchases, and shows who claimed it', async () => {
    const { browser, baseUrl, db } = site();
    const fundamentals = (await Product.query(db).findOne({ key: 'typescript-fundamentals' }))!;
    const buyer = await signedInAs(browser, baseUrl, db, 'gift-giver@example.com');
    await createPurchase(db, { user: buyer.user, product: fundamentals, totalAmount: 3920 });
    const { page } = buyer;

    await page.goto(`${baseUrl}/products/typescript-fundamentals`);
    const box = page.getByRole('region', { name: 'Buy this course' });
    await box.getByRole('button', { name: 'Give as a gift' }).click();
    await box.getByRole('button', { name: 'Buy as a gift' }).click();
    await payAndConfirm(page);
    await page.getByText('Your gift of TypeScript Fundamentals is ready.').waitFor();

    // From the thank-you page: the gift's page, in a gift's words, with nothing to buy and no seat to take.
    await page.getByRole('link', { name: 'Your gift’s page' }).click();
    const heading = page.getByRole('heading', { level: 1, name: 'Your gift of TypeScript Fundamentals' });
    await heading.waitFor();
    await page.getByRole('heading', { level: 2, name: 'Not claimed yet' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'The claim link to send' }).waitFor();
    const claim = await page.getByRole('textbox', { name: 'Claim link' }).inputValue();
    expect(claim).toMatch(new RegExp(`^${baseUrl}/invites/`));
    await page.getByRole('button', { name: 'Replace the claim link' }).waitFor();
    const main = page.getByRole('main');
    for (const teamWords of ['Buy more seats', 'Your team', 'Invite link', 'Claim a seat for myself', 'Seats']) {
      expect(await main.getByText(teamWords).count(), teamWords).toBe(0);
    }
    expect(await page.title()).toContain('Gift · TypeScript Fundamentals');
    await checkScreen(page, 'storefront-gift-page', { axe: true });

    // From My purchases: the gift's row says Gift, not a team of one, and leads to the same page.
    await page.goto(`${baseUrl}/purchases`);
    const giftLink = page.getByRole('link', { name: 'Your gift’s page' });
    const card = page.getByRole('listitem').filter({ has: giftLink });
    await card.getByText('Active gift: bought for someone else to study.').waitFor();
    await card.getByText('Not claimed yet: send its claim link from the gift’s page.').waitFor();
    for (const teamWords of ['Team seats', 'Manage team', 'Take your seat']) {
      expect(await card.getByText(teamWords).count(), teamWords).toBe(0);
    }
    await checkScreen(page, 'storefront-purchases-gift', { axe: true });
    await giftLink.click();
    await heading.waitFor();

    // The friend claims it; the buyer's page then says who claimed it and when, and offers no link to send.
    const friend = await signedInAs(browser, baseUrl, db, 'gift-receiver@example.com');
    await friend.page.goto(claim);
    await friend.page.getByRole('button', { name: 'Claim my gift' }).click();
    await friend.page.getByRole('heading', { level: 1, name: 'The gift is yours' }).waitFor();
    await friend.context.close();

    await page.reload();
    await page.getByRole('heading', { level: 2, name: 'Claimed' }).waitFor();
    const name = shownName({ id: friend.user.id, name: friend.user.name });
    const today = new Date().toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
    const claimed = page.locator('.gift-claimed');
    await expect.poll(() => claimed.innerText()).toContain(`Claimed by ${name} (gift-receiver@example.com) on`);
    expect(await claimed.innerText()).toContain(today);
    expect(await page.getByRole('textbox', { name: 'Claim link' }).count()).toBe(0);
    await checkScreen(page, 'storefront-gift-page-claimed', { axe: true });

    await page.goto(`${baseUrl}/purchases`);
    await card.getByText('Claimed', { exact: true }).waitFor();
    expect(await card.getByText('Not claimed yet').count()).toBe(0);

    // Taken back (it went to the wrong person): the claim link is there again to send to someone else.
    await giftLink.click();
    await page.getByRole('button', { name: 'Take the gift back' }).click();
    await page.getByRole('button', { name: 'Yes, take it back' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `You took the gift back from ${name}` })
      .waitFor();
    await page.getByRole('heading', { level: 2, name: 'Gift taken back from' }).waitFor();
    await page.getByRole('textbox', { name: 'Claim link' }).waitFor();
    await checkScreen(page, 'storefront-gift-page-taken-back', { axe: true });
    await buyer.context.close();
  });
});
