import type { Browser, BrowserContextOptions } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../api/src/db/connection';
import { sessions } from '../../api/src/identity/sign-in/sessions';
import { createPurchase, createUser } from '../../seeds/factories';
import { runSeeds } from '../../seeds/run';
import { checkScreen, payAndConfirm, useDemoSite } from '../support/browser';
import { parseIcs } from '../support/ics';
import { ContentResource, Product, Purchase } from '../support/models';

/** A browser context signed in as a new person with this email, in a given time zone. */
async function signedInAs(
  browser: Browser,
  baseUrl: string,
  db: Db,
  email: string,
  options: BrowserContextOptions = {},
) {
  const user = await createUser(db, { email });
  const session = await sessions({ db, clock: { now: () => new Date() } }).create(db, user.id, 'browser test', 'email');
  const context = await browser.newContext({ locale: 'en-US', ...options });
  await context.addCookies([
    { name: 'lp_session', value: session.token, url: baseUrl, httpOnly: true, sameSite: 'Lax' },
    { name: 'lp_csrf', value: session.csrfToken, url: baseUrl, sameSite: 'Lax' },
  ]);
  return { user, context, page: await context.newPage() };
}

/** A paid lesson of the demo course and its address. */
async function paidLessonPath(db: Db): Promise<string> {
  const course = (await ContentResource.query(db)
    .where({ type: 'course' })
    .whereRaw(`fields->>'title' = ?`, ['TypeScript Fundamentals'])
    .first())!;
  const lesson = (await ContentResource.query(db)
    .where({ type: 'lesson' })
    .whereRaw(`fields->>'title' = ?`, ['Arrays and tuples'])
    .first())!;
  return `/courses/${course.fields.slug}/lessons/${lesson.fields.slug}`;
}

const product = (db: Db, key: string) =>
  Product.query(db)
    .findOne({ key })
    .then((p) => p!);

describe('no buyer left stuck: owners buying again, and a workshop’s schedule (Chromium)', () => {
  // Buyers here are US visitors who name no state: tax where it depends on one is storefront-buy-box-tax.test.ts's.
  const site = useDemoSite(async (db) => {
    await runSeeds(db, { demo: true });
    await db('taxRegistrations').where({ country: 'US' }).delete();
  });

  it('unlocks a regional purchase used abroad: lesson → unlock price → pays → the lesson opens', async () => {
    const { browser, baseUrl, db } = site();
    const fundamentals = await product(db, 'typescript-fundamentals');
    const { user, context, page } = await signedInAs(browser, baseUrl, db, 'abroad-unlock@example.com');
    // Bought in India at the regional price ($12.25); the test server places every visitor in the United States.
    const regional = await createPurchase(db, {
      user,
      product: fundamentals,
      status: 'Restricted',
      country: 'IN',
      totalAmount: 1225,
    });
    const lesson = await paidLessonPath(db);

    await page.goto(`${baseUrl}${lesson}`);
    await page.getByRole('heading', { name: 'Your regional price works in India only' }).waitFor();
    // $49.00 less the 20 % sale, less the $12.25 paid.
    const unlock = page.getByRole('link', { name: 'Unlock full access for $26.95' });
    await unlock.waitFor();
    expect(await page.getByRole('link', { name: /^Buy / }).count()).toBe(0);
    await checkScreen(page, 'storefront-lesson-unlock');
    await unlock.click();

    // The product page offers the same unlock, not "You own it" (which sent the learner back to the locked lesson).
    const box = page.getByRole('region', { name: 'Buy this course' });
    await box.getByRole('heading', { name: 'Unlock full access for $26.95' }).waitFor();
    const price = box.getByRole('region', { name: 'Price' });
    await expect.poll(() => price.innerText()).toContain('$26.95');
    expect(await price.innerText()).toContain('Credit for your regional-price purchase');
    expect(await box.getByRole('checkbox', { name: /regional price/ }).count()).toBe(0);
    expect(await box.getByRole('checkbox', { name: 'For my team' }).count()).toBe(0);
    await checkScreen(page, 'storefront-product-unlock', { axe: true });
    await box.getByRole('button', { name: 'Unlock full access for $26.95' }).click();

    await page.waitForURL(/\/test-provider\/checkout\//);
    await expect.poll(() => page.getByText('$26.95').count()).toBeGreaterThan(0);
    await payAndConfirm(page);
    const unlocked = await Purchase.query(db).findOne({ userId: user.id, upgradedFromId: regional.id });
    expect(unlocked).toMatchObject({ status: 'Valid', totalAmount: 2695, productId: fundamentals.id });

    await page.goto(`${baseUrl}${lesson}`);
    await page.getByRole('heading', { level: 1, name: 'Arrays and tuples' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Your regional price works in India only' }).count()).toBe(0);
    await page.getByText('Lists of one type, and fixed-length lists of several.').waitFor();
    // Unlocked: the product page now says so, and offers buying for others.
    await page.goto(`${baseUrl}/products/typescript-fundamentals`);
    await box.getByText('You own TypeScript Fundamentals.').waitFor();
    expect(await box.getByRole('heading', { name: /Unlock/ }).count()).toBe(0);
    await context.close();
  });

  it('lets an owner buy seats for a team, and one seat as a gift, from the product page', async () => {
    const { browser, baseUrl, db } = site();
    const fundamentals = await product(db, 'typescript-fundamentals');
    const { user, context, page } = await signedInAs(browser, baseUrl, db, 'owner-buys@example.com');
    await createPurchase(db, { user, product: fundamentals, totalAmount: 3920 });

    await page.goto(`${baseUrl}/products/typescript-fundamentals`);
    const box = page.getByRole('region', { name: 'Buy this course' });
    await box.getByText('You own TypeScript Fundamentals.').waitFor();
    await box.getByRole('link', { name: 'Go to your course' }).waitFor();
    const forTeam = box.getByRole('button', { name: 'Buy for your team' });
    const asGift = box.getByRole('button', { name: 'Give as a gift' });
    expect(await forTeam.getAttribute('aria-expanded')).toBe('false');
    await checkScreen(page, 'storefront-product-owner', { axe: true });

    await forTeam.click();
    expect(await forTeam.getAttribute('aria-expanded')).toBe('true');
    await box.getByRole('spinbutton', { name: 'Seats' }).fill('3');
    const price = box.getByRole('region', { name: 'Price' });
    // 3 seats × $49.00, less the 20 % sale.
    await expect.poll(() => price.innerText()).toContain('$117.60');
    await checkScreen(page, 'storefront-product-owner-team');
    await box.getByRole('button', { name: 'Buy 3 seats' }).click();
    await payAndConfirm(page);
    await page.getByRole('heading', { name: 'Your seats to give away' }).waitFor();
    await page.getByRole('textbox', { name: 'Invite link' }).waitFor();
    const teams = await db('purchases as p')
      .join('coupons as c', 'c.id', 'p.bulkCouponId')
      .where({ 'p.userId': user.id, 'p.productId': fundamentals.id })
      .select('c.maxUses');
    expect(teams).toEqual([{ maxUses: 3 }]);
    await checkScreen(page, 'storefront-thanks-owner-team');

    // A gift: one seat of its own, and the claim link to send.
    await page.goto(`${baseUrl}/products/typescript-fundamentals`);
    await asGift.click();
    await expect.poll(() => price.innerText()).toContain('$39.20');
    await box.getByRole('button', { name: 'Buy as a gift' }).click();
    await payAndConfirm(page);
    await page.getByText('Your gift of TypeScript Fundamentals is ready.').waitFor();
    const claim = await page.getByRole('textbox', { name: 'Claim link' }).inputValue();
    expect(claim).toMatch(new RegExp(`^${baseUrl}/invites/`));
    await checkScreen(page, 'storefront-thanks-gift');
    const gift = await db('checkouts').where({ buyerUserId: user.id, gift: true }).first('purchaseId');
    const giftCoupon = await db('coupons').where({ bulkPurchaseId: gift.purchaseId }).first('maxUses');
    expect(giftCoupon.maxUses).toBe(1);
    await context.close();

    // The person it is for opens the claim link, signed in as themselves, and the course is theirs.
    const friend = await signedInAs(browser, baseUrl, db, 'gift-friend@example.com');
    await friend.page.goto(claim);
    await friend.page.getByRole('heading', { level: 1, name: 'A gift for you: TypeScript Fundamentals' }).waitFor();
    await checkScreen(friend.page, 'storefront-gift-claim', { axe: true });
    await friend.page.getByRole('button', { name: 'Claim my gift' }).click();
    await friend.page.getByRole('heading', { level: 1, name: 'The gift is yours' }).waitFor();
    await friend.page.getByRole('link', { name: 'Go to the course' }).click();
    await friend.page.getByRole('heading', { level: 1, name: 'TypeScript Fundamentals' }).waitFor();
    expect(
      await Purchase.query(db).findOne({ userId: friend.user.id, productId: fundamentals.id, status: 'Valid' }),
    ).toBeTruthy();
    await friend.context.close();
  });

  it('thanks a workshop’s buyer with its schedule in their time zone and one calendar file of every session', async () => {
    const { browser, baseUrl, db } = site();
    const workshop = await product(db, 'type-level-workshop');
    const sessionRows = await db('workshopSessions').where({ productId: workshop.id }).orderBy('startsAt');
    expect(sessionRows).toHaveLength(2);
    const { context, page } = await signedInAs(browser, baseUrl, db, 'kolkata-buyer@example.com', {
      timezoneId: 'Asia/Kolkata',
    });

    await page.goto(`${baseUrl}/products/${workshop.slug}`);
    await page.getByRole('button', { name: 'Buy now' }).click();
    await payAndConfirm(page);
    expect(await page.getByRole('term').first().innerText()).toBe('Workshop');
    const schedule = page.getByRole('region', { name: 'Your workshop’s schedule' });
    // Named as people call it, and by the zone's id as this browser spells it (Asia/Kolkata or Asia/Calcutta).
    await schedule
      .getByText(/^Times are in your time zone, India Standard Time \(Asia\/(Kolkata|Calcutta)\)\.$/)
      .waitFor();
    for (const [i, row] of sessionRows.entries()) {
      const item = schedule.getByRole('listitem').nth(i);
      await item.getByRole('heading', { name: row.title }).waitFor();
      const text = (await item.innerText()).replace(/\s/g, ' ');
      const day = new Intl.DateTimeFormat('en-US', {
        weekday: 'short',
        month: 'short',
        day: 'numeric',
        timeZone: 'Asia/Kolkata',
      }).format(row.startsAt);
      const time = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', timeZone: 'Asia/Kolkata' })
        .format(row.startsAt)
        .replace(/\s/g, ' ');
      expect(text).toContain(day);
      expect(text).toContain(time);
      expect(text).toContain('GMT+5:30');
      expect(text).toContain('in America/New_York, where the workshop runs');
      expect(await item.getByRole('link', { name: 'Join link' }).getAttribute('href')).toBe(row.joinUrl);
    }
    // The page itself speaks of the workshop only (the header's search box names courses, as on every page).
    expect(
      await page
        .getByRole('main')
        .getByText(/course/i)
        .count(),
    ).toBe(0);
    await page.getByRole('link', { name: 'Go to My learning' }).waitFor();
    await checkScreen(page, 'storefront-thanks-workshop', { axe: true });

    const download = schedule.getByRole('link', { name: 'Add all sessions to your calendar (.ics)' });
    const href = (await download.getAttribute('href'))!;
    const file = await page.request.get(`${baseUrl}${href}`);
    expect(file.status()).toBe(200);
    const { events } = parseIcs(await file.text());
    const utc = (date: Date) =>
      date
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d{3}/, '');
    expect(events.map((e) => [e.DTSTART, e.DTEND, e.URL])).toEqual(
      sessionRows.map((row) => [utc(row.startsAt), utc(row.endsAt), row.joinUrl]),
    );

    // My learning: the same file, and every session's time with its zone.
    await page.getByRole('link', { name: 'Go to My learning' }).click();
    const workshops = page.getByRole('region', { name: 'Live workshops' });
    await workshops.getByRole('link', { name: 'Add all 2 sessions to your calendar (.ics)' }).waitFor();
    expect(await workshops.getByText('GMT+5:30').count()).toBe(2);
    await context.close();
  });
});
