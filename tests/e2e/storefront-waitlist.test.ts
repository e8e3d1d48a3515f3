import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Product } from '../support/models';
import { hashSecret } from '../../api/src/identity/secrets';
import { createCoupon, createCourse, createProduct, createPurchase, createUser } from '../../seeds/factories';
import { runSeeds } from '../../seeds/run';
import { checkScreen, signedInContext, useDemoSite } from '../support/browser';

const DAY = 24 * 60 * 60 * 1000;

/** Nothing of the buy side: no price to act on, no sale, no coupon, no seats, no Buy. */
async function expectNoBuyUi(page: Page) {
  const buy = page.getByRole('region', { name: 'Buy this course' });
  await expect.poll(() => buy.getByRole('button', { name: /^Buy|Get it free/ }).count()).toBe(0);
  expect(await buy.getByLabel(/coupon/i).count()).toBe(0);
  expect(await buy.getByText(/Sale:/).count()).toBe(0);
  expect(await buy.getByText(/\$\d/).count()).toBe(0);
  expect(await buy.getByRole('spinbutton').count()).toBe(0);
  expect(await buy.getByRole('checkbox').count()).toBe(0);
  expect(await page.getByText('Loading the price…').count()).toBe(0);
}

describe('sold out and closed products: no buy UI, a waitlist (Chromium)', () => {
  let soldOut: Product;
  let later: Product;
  let courseSlug: string;
  const site = useDemoSite(async (db) => {
    await runSeeds(db, { demo: true });
    // A site-wide sale runs: a product on sale shows its banner; a sold-out one must not.
    await createCoupon(db, { percentageDiscount: 0.2, default: true });
    soldOut = await createProduct(db, { name: 'Cohort: Sold Out', quantityAvailable: 1, unitAmount: 19_900 });
    await createPurchase(db, { user: await createUser(db), product: soldOut });
    const { course } = await createCourse(
      db,
      {
        title: 'Waitlisted Course',
        modules: [
          {
            title: 'Start',
            sections: [
              {
                title: 'First',
                lessons: [
                  { title: 'Welcome', body: '<p>Hello</p>', free: true },
                  { title: 'Deep dive', body: '<p>Paid</p>' },
                ],
              },
            ],
          },
        ],
      },
      { products: [soldOut] },
    );
    courseSlug = (course.fields as { slug: string }).slug;
    later = await createProduct(db, {
      name: 'Cohort: Opens Later',
      enrollmentOpensAt: new Date(Date.now() + 10 * DAY),
    });
  });

  it('shows a sold-out product’s state and a working waitlist instead of the buy side (1280 and 390 px, axe)', async () => {
    const { browser, baseUrl, db } = site();
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/products/${soldOut.slug}`);
    const buy = page.getByRole('region', { name: 'Buy this course' });
    await buy.getByRole('heading', { name: 'Sold out' }).waitFor();
    await expectNoBuyUi(page);
    await checkScreen(page, 'waitlist-sold-out', { axe: true });

    // An empty address is explained at the field; a real one joins.
    await buy.getByRole('button', { name: 'Join the waitlist' }).click();
    await buy.getByText('Enter your email address').waitFor();
    await expect.poll(() => page.evaluate('document.activeElement?.getAttribute("type")')).toBe('email');
    await buy.getByLabel('Email for the waitlist').fill('Waiting.Person@Example.com');
    await buy.getByRole('button', { name: 'Join the waitlist' }).click();
    await buy.getByText('You are on the waitlist.').waitFor();
    await buy.getByText('We email waiting.person@example.com once when seats open up.').waitFor();
    expect(await db('waitlistEntries').where({ productId: soldOut.id }).pluck('email')).toEqual([
      'waiting.person@example.com',
    ]);
    await checkScreen(page, 'waitlist-joined', { axe: true });

    // Joining again is fine, and says so.
    await page.reload();
    await buy.getByLabel('Email for the waitlist').fill('waiting.person@example.com');
    await buy.getByRole('button', { name: 'Join the waitlist' }).click();
    await buy.getByText('You were already on the waitlist.').waitFor();
    expect(await db('waitlistEntries').where({ productId: soldOut.id })).toHaveLength(1);
    await context.close();
  });

  it('fills in a signed-in learner’s address', async () => {
    const { browser, baseUrl } = site();
    const context = await signedInContext(browser, baseUrl, site().db, ['learner'], 'signed.in@example.com');
    const page = await context.newPage();
    await page.goto(`${baseUrl}/products/${soldOut.slug}`);
    const field = page.getByRole('region', { name: 'Buy this course' }).getByLabel('Email for the waitlist');
    await expect.poll(() => field.inputValue()).toBe('signed.in@example.com');
    await context.close();
  });

  it('names a closed product’s opening date in the reader’s time zone, with a waitlist', async () => {
    const { browser, baseUrl } = site();
    const context = await browser.newContext({ locale: 'en-US', timezoneId: 'Asia/Tokyo' });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/products/${later.slug}`);
    const buy = page.getByRole('region', { name: 'Buy this course' });
    const heading = buy.getByRole('heading', { name: /^Enrollment closed — opens / });
    await heading.waitFor();
    const opens = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'Asia/Tokyo' }).format(
      later.enrollmentOpensAt!,
    );
    expect(await heading.innerText()).toContain(opens);
    expect(await heading.innerText()).toContain('GMT+9');
    await expectNoBuyUi(page);
    await buy.getByRole('button', { name: 'Join the waitlist' }).waitFor();
    await context.close();
  });

  it('has no Buy button for it on the course page, and no price on the home page card', async () => {
    const { browser, baseUrl } = site();
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/courses/${courseSlug}`);
    const notice = page.getByRole('region', { name: /Sign in to study this course/ });
    await notice.getByRole('link', { name: 'Cohort: Sold Out: Sold out — join the waitlist' }).waitFor();
    expect(await page.getByRole('link', { name: /^Buy / }).count()).toBe(0);
    await checkScreen(page, 'waitlist-course-page', { axe: true });

    await page.goto(`${baseUrl}/`);
    const card = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Cohort: Sold Out' }) });
    await card.getByText('Sold out', { exact: true }).waitFor();
    expect(await card.getByText(/\$\d/).count()).toBe(0);
    await context.close();
  });

  it('leaves the waitlist from the email’s link, after pressing the button', async () => {
    const { browser, baseUrl, db } = site();
    const [entry] = await db('waitlistEntries')
      .insert({ productId: soldOut.id, email: 'leaving@example.com', leaveTokenHash: hashSecret('leave-token') })
      .returning('id');
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/waitlist/leave?entry=${entry.id}&token=leave-token`);
    await page.getByRole('heading', { name: 'Leave the waitlist?' }).waitFor();
    expect(await db('waitlistEntries').where({ id: entry.id }).first()).toBeDefined(); // opening the link is not leaving
    await checkScreen(page, 'waitlist-leave', { axe: true });
    await page.getByRole('button', { name: 'Leave the waitlist' }).click();
    await page.getByRole('heading', { name: 'You left the waitlist' }).waitFor();
    await page.getByRole('link', { name: 'Go to Cohort: Sold Out' }).waitFor();
    expect(await db('waitlistEntries').where({ id: entry.id }).first()).toBeUndefined();
    await context.close();
  });

  it('lists the waitlist in the console, filtered by product, and counts it on the product’s page', async () => {
    const { browser, baseUrl, db } = site();
    await db('waitlistEntries').insert(
      ['second@example.com', 'third@example.com'].map((email) => ({ productId: soldOut.id, email })),
    );
    // Someone waiting for another product, who is neither listed nor counted here.
    const other = await createProduct(db, { name: 'Cohort: Another', quantityAvailable: 1 });
    await db('waitlistEntries').insert({ productId: other.id, email: 'elsewhere@example.com' });
    const waiting = (await db('waitlistEntries').where({ productId: soldOut.id }).pluck('email')).sort();
    expect(waiting).toEqual(expect.arrayContaining(['second@example.com', 'third@example.com']));

    const context = await signedInContext(browser, baseUrl, db, ['support']);
    const page = await context.newPage();
    await page.goto(`${baseUrl}/admin/#/products/${soldOut.id}/show`);
    await expect.poll(() => page.getByText(`${waiting.length} people waiting`).count()).toBe(1);
    await page.getByRole('link', { name: 'Show the waitlist' }).click();
    const listed = async () =>
      (await page.getByRole('cell', { name: /@example\.com$/ }).allInnerTexts()).map((email) => email.trim()).sort();
    await expect.poll(listed).toEqual(waiting);
    expect(await page.getByRole('button', { name: 'Export' }).count()).toBe(1);
    // Without axe: the console's list toolbar (react-admin's filter and export buttons, on every list) has its own findings.
    await checkScreen(page, 'console-waitlist');
    await context.close();
  });
});
