import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../api/src/db/connection';
import { ContentResource, Product, User } from '../support/models';
import { runSeeds } from '../../seeds/run';
import { createCourse, createPurchase } from '../../seeds/factories';
import { axeViolations, checkScreen, keepScreenshot, signedInContext, useDemoSite } from '../support/browser';

const PRO_COURSE = 'TypeScript Pro: Generics and Beyond';

/**
 * The demo, plus what a real sales page carries: TypeScript Pro's own course (granted first, before Fundamentals),
 * lesson lengths, a question and answer, and the author's bio. The demo's sale (20 % off, two weeks) is running.
 */
async function seedSalesPage(db: Db) {
  await runSeeds(db, { demo: true });
  const pro = (await Product.query(db).findOne({ key: 'typescript-pro' }))!;
  const lesson = (title: string, free = false) => ({ title, free, body: `<p>${title}: the lesson itself.</p>` });
  const { course, lessons } = await createCourse(db, {
    title: PRO_COURSE,
    modules: [
      {
        title: 'Generics',
        sections: [
          { title: 'Type parameters', lessons: [lesson('Your first generic'), lesson('Constraints', true)] },
          { title: 'In practice', lessons: [lesson('Generic components')] },
        ],
      },
      { title: 'Type-level programming', sections: [{ title: 'Conditional types', lessons: [lesson('infer')] }] },
    ],
  });
  await db('productContentResources').where({ productId: pro.id }).increment('position', 1);
  await db('productContentResources').insert({ productId: pro.id, resourceId: course.id, position: 0 });
  for (const [i, minutes] of [12, 18, 25, 40].entries()) {
    await db('contentResources')
      .where({ id: lessons[i]!.id })
      .update({ fields: db.raw(`fields || jsonb_build_object('durationMinutes', ?::int)`, [minutes]) });
  }
  await db('productFaqs').insert([
    { productId: pro.id, position: 0, question: 'Do I need Fundamentals first?', answer: 'No: Pro includes it.' },
    { productId: pro.id, position: 1, question: 'Can my team use it?', answer: 'Yes: buy seats for them.' },
  ]);
  await db('users')
    .where({ email: 'contributor@example.com' })
    .update({ bio: 'Cora has taught TypeScript to a thousand teams.' });
}

async function proCourse(db: Db) {
  return (await ContentResource.query(db)
    .where({ type: 'course' })
    .whereRaw(`fields->>'title' = ?`, [PRO_COURSE])
    .first())!;
}

/** The seconds box of the sale's countdown. */
const countdownSeconds = (page: Page) =>
  page.getByRole('timer').locator('.sale-countdown-part').nth(3).locator('.sale-countdown-value').innerText();

describe('the sales page (Chromium)', () => {
  const site = useDemoSite(seedSalesPage);

  it('shows the curriculum with lengths, opens a free preview signed out, expands the FAQ and counts the sale down', async () => {
    const { browser, baseUrl } = site();
    const context = await browser.newContext({ timezoneId: 'Asia/Tokyo', locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/products/typescript-pro`);
    await page.getByRole('heading', { level: 1, name: 'TypeScript Pro' }).waitFor();
    await page.getByText('By Cora Contributor').waitFor();

    // The curriculum: Pro's own course first, then Fundamentals; modules fold, lessons show their lengths. No length in
    // all: Fundamentals' lessons have none (a sum of Pro's alone would understate it); Pro's own course has its own.
    const curriculum = page.getByRole('region', { name: 'Curriculum' });
    await curriculum.getByText(/^2 courses · 4 modules · 13 lessons · 6 free previews$/).waitFor();
    await curriculum.getByText(/^4 lessons · 1\s+h\s+35\s+min$/).waitFor();
    const headings = await curriculum.getByRole('heading', { level: 3 }).allInnerTexts();
    expect(headings).toEqual([PRO_COURSE, 'TypeScript Fundamentals']);
    const generics = curriculum.locator('details').filter({ hasText: 'Generics' }).first();
    expect(await generics.getAttribute('open')).not.toBeNull(); // the first module starts open
    await generics.getByText('Generic components').waitFor();
    expect(await generics.locator('li').filter({ hasText: 'Constraints' }).innerText()).toMatch(/18\s+min/);
    const typeLevel = curriculum.locator('details').filter({ hasText: 'Type-level programming' });
    expect(await typeLevel.getByText('infer').isVisible()).toBe(false);
    await typeLevel.locator('summary').click();
    await typeLevel.getByText('infer').waitFor();
    expect(await typeLevel.locator('summary').innerText()).toMatch(/1 lesson · 40\s+min/);
    // Paid lessons are not links; free previews are.
    expect(await curriculum.getByRole('link', { name: 'Generic components' }).count()).toBe(0);

    // What's included, the instructor and the refund policy.
    const included = page.getByRole('region', { name: 'What’s included' });
    await included.getByText('2 courses, 13 lessons').waitFor();
    expect(await included.getByText(/of lessons/).count()).toBe(0);
    const instructors = page.getByRole('region', { name: 'Your instructor' });
    await instructors.getByRole('heading', { name: 'Cora Contributor' }).waitFor();
    await instructors.getByText('Cora has taught TypeScript to a thousand teams.').waitFor();
    await page
      .getByRole('region', { name: 'Refund policy' })
      .getByText(/reply to your receipt/)
      .waitFor();

    // The FAQ: an accessible disclosure list.
    const faq = page.getByRole('region', { name: 'Frequently asked questions' });
    const answer = faq.getByText('No: Pro includes it.');
    expect(await answer.isVisible()).toBe(false);
    await faq.getByText('Do I need Fundamentals first?').click();
    await answer.waitFor();
    expect(await faq.locator('details').first().getAttribute('open')).not.toBeNull();

    // The sale: 20 % off $199, counting down in the reader's time zone, the count not a live region.
    const banner = page.getByRole('group', { name: 'Sale: 20 % off ends in' });
    await banner.waitFor();
    await page.getByRole('region', { name: 'Buy this course' }).getByText('$159.20').first().waitFor();
    const timer = page.getByRole('timer');
    await timer.waitFor();
    expect(await timer.getAttribute('aria-live')).toBeNull();
    const first = await countdownSeconds(page);
    expect(first).toMatch(/^\d\d$/);
    await expect.poll(() => countdownSeconds(page), { timeout: 5_000 }).not.toBe(first);
    expect(await banner.innerText()).toMatch(/13\s+days/);
    const sale = await site().db('coupons').where({ default: true }).first();
    const tokyo = new Intl.DateTimeFormat('en-US', {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZone: 'Asia/Tokyo',
      timeZoneName: 'short',
    }).format(sale.expires);
    await banner.getByText(`Until ${tokyo} (your time)`).waitFor();

    // No accessibility violation of any impact, and the page at 1280 and 390 px.
    await faq.getByText('Can my team use it?').click();
    expect(await axeViolations(page)).toEqual([]);
    await page.evaluate('window.scrollTo(0, 0)'); // the buy box beside the top of the page, as a visitor sees it
    await checkScreen(page, 'sales-page', { axe: true });

    // A free preview opens, signed out.
    await curriculum.getByRole('link', { name: 'Constraints' }).click();
    await page.getByRole('heading', { level: 1, name: 'Constraints' }).waitFor();
    await page.getByText('Constraints: the lesson itself.').waitFor();
    expect(page.url()).toContain(`/courses/${(await proCourse(site().db)).fields.slug}/lessons/`);
    await context.close();
  });

  it('gives someone who owns Pro “Go to your course”, into Pro’s own course, instead of the buy box', async () => {
    const { browser, baseUrl, db } = site();
    const context = await signedInContext(browser, baseUrl, db, ['learner'], 'pro-owner@example.com');
    const owner = (await User.query(db).findOne({ email: 'pro-owner@example.com' }))!;
    await createPurchase(db, { user: owner, product: (await Product.query(db).findOne({ key: 'typescript-pro' }))! });
    const page = await context.newPage();

    // The home page marks it, and shows the sale's price on what they do not own.
    await page.goto(baseUrl);
    const card = (name: string) =>
      page.getByRole('listitem').filter({ has: page.getByRole('heading', { name, exact: true }) });
    const proCard = card('TypeScript Pro');
    await proCard.getByText('You own this course').waitFor();
    expect(await proCard.getByText('$').count()).toBe(0);
    const fundamentalsPrice = await card('TypeScript Fundamentals').locator('.price').innerText();
    for (const part of ['$39.20', '$49.00', '20 % off']) expect(fundamentalsPrice).toContain(part);
    expect(await card('TypeScript Fundamentals').locator('.price s').innerText()).toContain('$49.00');

    await page.goto(`${baseUrl}/products/typescript-pro`);
    const buy = page.getByRole('region', { name: 'Buy this course' });
    await buy.getByText('You own TypeScript Pro.').waitFor();
    // No price for themselves: only buying for others, each behind its own button.
    expect(await buy.getByRole('button', { name: /^Buy (now|\d)/ }).count()).toBe(0);
    await buy.getByRole('button', { name: 'Buy for your team' }).waitFor();
    expect(await page.getByRole('timer').count()).toBe(0);
    await buy
      .getByRole('navigation', { name: 'Also included' })
      .getByRole('link', { name: 'TypeScript Fundamentals' })
      .waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await checkScreen(page, 'sales-page-owner');
    await buy.getByRole('link', { name: 'Go to your course' }).click();
    // The product page's heading is the course's title too: the address says the course page has come.
    await page.waitForURL(`${baseUrl}/courses/${(await proCourse(db)).fields.slug}`);
    await page.getByRole('heading', { level: 1, name: PRO_COURSE }).waitFor();
    await context.close();
  });

  it('takes the sales page’s words from the console: included lines, FAQ, refund policy, a bio, a lesson’s length', async () => {
    const { browser, baseUrl, db } = site();
    const context = await signedInContext(browser, baseUrl, db, ['support']);
    const page = await context.newPage();
    const fundamentals = (await Product.query(db).findOne({ key: 'typescript-fundamentals' }))!;

    await page.goto(`${baseUrl}/admin/#/products/${fundamentals.id}`);
    await page.getByRole('textbox', { name: 'Name' }).waitFor();
    await page.getByRole('button', { name: 'Add' }).first().click();
    await page.getByRole('textbox', { name: 'Line' }).fill('Certificate of completion');
    await page.getByRole('button', { name: 'Add' }).nth(1).click();
    await page.getByRole('textbox', { name: 'Question' }).fill('Is it up to date?');
    await page.getByRole('textbox', { name: 'Answer' }).fill('Yes: TypeScript 5.');
    await page.getByRole('textbox', { name: 'Refund policy' }).fill('Full refund within 30 days.');
    await keepScreenshot(page, 'console-product-sales-page');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(async () => (await db('products').where({ id: fundamentals.id }).first()).refundPolicy, { timeout: 15_000 })
      .toBe('Full refund within 30 days.');
    // The console moves to the product's page once the save answers: wait for it, so it cannot take the next page.
    await page.waitForURL((url) => url.hash === `#/products/${fundamentals.id}/show`);
    expect((await db('products').where({ id: fundamentals.id }).first()).included).toEqual([
      'Certificate of completion',
    ]);
    expect(await db('productFaqs').where({ productId: fundamentals.id }).select('question', 'answer')).toEqual([
      { question: 'Is it up to date?', answer: 'Yes: TypeScript 5.' },
    ]);

    const cora = (await User.query(db).findOne({ email: 'contributor@example.com' }))!;
    await page.goto(`${baseUrl}/admin/#/users/${cora.id}`);
    const bio = page.getByRole('textbox', { name: 'Bio' });
    await expect.poll(() => bio.inputValue(), { timeout: 15_000 }).toContain('a thousand teams');
    await bio.fill('Cora writes the TypeScript courses.');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(async () => (await User.query(db).findById(cora.id))!.bio, { timeout: 15_000 })
      .toBe('Cora writes the TypeScript courses.');
    await page.waitForURL((url) => url.hash === `#/users/${cora.id}/show`);

    const welcome = (await ContentResource.query(db)
      .where({ type: 'lesson' })
      .whereRaw(`fields->>'title' = 'Welcome'`)
      .first())!;
    await page.goto(`${baseUrl}/admin/#/content-resources/${welcome.id}`);
    await page.getByRole('spinbutton', { name: 'Length (minutes)' }).fill('7');
    await keepScreenshot(page, 'console-lesson-length');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(async () => (await ContentResource.query(db).findById(welcome.id))!.fields.durationMinutes, {
        timeout: 15_000,
      })
      .toBe(7);
    expect((await ContentResource.query(db).findById(welcome.id))!.fields.body).toContain('What this course covers');
    await page.waitForURL((url) => url.hash === `#/content-resources/${welcome.id}/show`);

    // The storefront shows them.
    await page.goto(`${baseUrl}/products/typescript-fundamentals`);
    await page.getByRole('region', { name: 'What’s included' }).getByText('Certificate of completion').waitFor();
    await page.getByRole('region', { name: 'Frequently asked questions' }).getByText('Is it up to date?').waitFor();
    await page.getByRole('region', { name: 'Refund policy' }).getByText('Full refund within 30 days.').waitFor();
    await page.getByText('Cora writes the TypeScript courses.').waitFor();
    const welcomeRow = page
      .getByRole('region', { name: 'Curriculum' })
      .locator('li.curriculum-lesson')
      .filter({ hasText: 'Welcome' });
    expect(await welcomeRow.innerText()).toMatch(/7\s+min/);
    await context.close();
  });

  it('answers an unknown product with the not-found page', async () => {
    const { browser, baseUrl } = site();
    const context = await browser.newContext();
    const page = await context.newPage();
    const answer = await page.goto(`${baseUrl}/products/no-such-course`);
    expect(answer?.status()).toBe(404);
    // The page as the app renders it, not a product page left loading.
    await expect.poll(() => page.getByRole('heading', { level: 1 }).allInnerTexts()).toEqual(['Course not found']);
    expect(await page.getByText('This course does not exist or is no longer on sale.').count()).toBe(1);
    await expect.poll(() => page.title()).toBe('Course not found — Typed Academy');
    await context.close();
  });
});
