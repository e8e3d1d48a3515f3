import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../api/src/db/connection';
import { Bookmark, Comment, ContentResource, LessonProgress, Product, User } from '../support/models';
import { createPurchase } from '../../seeds/factories';
import { keepScreenshot, signedInContext, useDemoSite, type DemoSite } from '../support/browser';

/** The demo course and its lessons' addresses (slugs carry a random suffix). */
async function demoCourse(db: Db) {
  const course = (await ContentResource.query(db)
    .where({ type: 'course' })
    .whereRaw(`fields->>'title' = ?`, ['TypeScript Fundamentals'])
    .first())!;
  const lesson = async (title: string) => {
    const row = (await ContentResource.query(db)
      .where({ type: 'lesson' })
      .whereRaw(`fields->>'title' = ?`, [title])
      .first())!;
    return { id: row.id, path: `/courses/${course.fields.slug}/lessons/${row.fields.slug}` };
  };
  return { course, path: `/courses/${course.fields.slug}`, lesson };
}

/** A new learner (who bought the product, when one is named), signed in in a fresh browser context. */
async function learnerWith(
  site: DemoSite,
  email: string,
  product: string | null,
  fields: { status?: 'Valid' | 'Restricted'; country?: string } = {},
) {
  const context = await signedInContext(site.browser, site.baseUrl, site.db, ['learner'], email);
  const user = (await User.query(site.db).findOne({ email }))!;
  if (product)
    await createPurchase(site.db, {
      user,
      product: (await Product.query(site.db).findOne({ slug: product }))!,
      ...fields,
    });
  return { context, user, page: await context.newPage() };
}

const completeButton = (page: Page) => page.getByRole('button', { name: /^(Mark complete|Mark incomplete|Saving…)$/ });

describe('studying a course on the storefront (Chromium)', () => {
  const site = useDemoSite();

  it('completes two lessons, is offered the third to continue with, bookmarks it and discusses it', async () => {
    const { baseUrl, db } = site();
    const { page, user, context } = await learnerWith(site(), 'studies@example.com', 'typescript-fundamentals');
    const demo = await demoCourse(db);
    const welcome = await demo.lesson('Welcome');
    const mistakes = await demo.lesson('Types catch mistakes early');
    const primitives = await demo.lesson('Primitive types');

    // From the product page to the course.
    await page.goto(`${baseUrl}/products/typescript-fundamentals`);
    await page.getByRole('link', { name: 'Go to the course' }).click();
    // The product page's heading is the course's title too: the address says the course page has come.
    await page.waitForURL(`${baseUrl}${demo.path}`);
    await page.getByRole('heading', { level: 1, name: 'TypeScript Fundamentals' }).waitFor();
    const outline = page.getByRole('region', { name: 'Lessons' });
    await expect.poll(() => outline.getByText('Not completed yet:').count()).toBe(9);
    expect(await page.getByRole('progressbar', { name: 'Course progress' }).getAttribute('aria-valuenow')).toBe('0');
    expect(await page.getByText('Locked:').count()).toBe(0); // bought: every lesson is open
    await keepScreenshot(page, 'storefront-course');

    // Lesson 1: read, mark complete, go on to the next.
    await page.getByRole('link', { name: 'Start the course' }).click();
    await page.getByRole('heading', { level: 1, name: 'Welcome' }).waitFor();
    expect(page.url()).toBe(`${baseUrl}${welcome.path}`);
    await page.getByText('What this course covers and how to study it.').waitFor(); // the body
    await page.getByRole('button', { name: 'Mark complete' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Marked complete. Getting started: 1 of 4 lessons done.' })
      .waitFor();
    await page.getByRole('button', { name: 'Mark incomplete' }).waitFor();
    await page.getByRole('link', { name: /^Next lesson/ }).click();

    // Lesson 2.
    await page.getByRole('heading', { level: 1, name: 'Types catch mistakes early' }).waitFor();
    expect(page.url()).toBe(`${baseUrl}${mistakes.path}`);
    await completeButton(page).click();
    await page.getByRole('status').filter({ hasText: 'Getting started: 2 of 4 lessons done.' }).waitFor();
    await keepScreenshot(page, 'storefront-lesson');

    // Away and back: the course and the home page continue with lesson 3.
    await page.getByRole('link', { name: 'Typed Academy', exact: true }).click();
    const continueHere = page
      .getByRole('region', { name: 'Continue learning' })
      .getByRole('link', { name: 'Continue where you left off' });
    await continueHere.waitFor();
    expect(await continueHere.getAttribute('href')).toBe(primitives.path);
    expect(
      await page
        .getByRole('progressbar', { name: 'Progress in TypeScript Fundamentals' })
        .getAttribute('aria-valuenow'),
    ).toBe('22'); // 2 of 9
    await keepScreenshot(page, 'storefront-home-continue');

    await page.goto(`${baseUrl}${demo.path}`);
    const resume = page.getByRole('link', { name: 'Continue where you left off' });
    await resume.waitFor();
    expect(await resume.getAttribute('href')).toBe(primitives.path);
    expect(await page.getByText('Completed:').count()).toBe(2);
    expect(await page.getByRole('progressbar', { name: 'Progress in Why types' }).getAttribute('aria-valuenow')).toBe(
      '100',
    );
    expect(
      await page.getByRole('progressbar', { name: 'Progress in Getting started' }).getAttribute('aria-valuenow'),
    ).toBe('50');

    // Lesson 3: bookmark it.
    await resume.click();
    await page.getByRole('heading', { level: 1, name: 'Primitive types' }).waitFor();
    const bookmark = page.getByRole('button', { name: 'Bookmark' });
    expect(await bookmark.getAttribute('aria-pressed')).toBe('false');
    await bookmark.click();
    await expect.poll(() => bookmark.getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('status').filter({ hasText: 'Saved in your bookmarks.' }).waitFor();

    // ... and discuss it: post, edit, then post and delete a second comment.
    const comments = page.getByRole('region', { name: /^Comments/ });
    await comments.getByText('No comments yet.').waitFor();
    const field = comments.getByRole('textbox', { name: 'Add a comment' });
    await comments.getByRole('button', { name: 'Post comment' }).click();
    await comments.getByRole('alert').filter({ hasText: 'Write something first.' }).waitFor();
    await field.fill('x'.repeat(5001));
    await comments.getByText('1 characters too many (at most 5,000)').waitFor();
    await field.fill('Is bigint a primitive too?');
    await comments.getByText('26 of 5,000 characters').waitFor();
    await comments.getByRole('button', { name: 'Post comment' }).click();
    const first = comments.getByRole('listitem').filter({ hasText: 'Is bigint a primitive too?' });
    await first.waitFor();
    expect(await field.inputValue()).toBe('');
    await first.getByRole('button', { name: 'Edit' }).click();
    await first.getByRole('textbox', { name: 'Edit your comment' }).fill('Is bigint a primitive too? (and symbol?)');
    await first.getByRole('button', { name: 'Save' }).click();
    await comments.getByRole('listitem').filter({ hasText: '(and symbol?)' }).getByText('edited').waitFor();
    await field.fill('A comment to take back');
    await comments.getByRole('button', { name: 'Post comment' }).click();
    const second = comments.getByRole('listitem').filter({ hasText: 'A comment to take back' });
    await second.getByRole('button', { name: 'Delete' }).click();
    await second.getByRole('button', { name: 'Yes, delete' }).click();
    await comments.getByRole('status').filter({ hasText: 'Comment deleted.' }).waitFor();
    await expect.poll(() => comments.getByRole('listitem').count()).toBe(1);
    await keepScreenshot(page, 'storefront-lesson-comments');

    // Bookmarks, from the main navigation.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Bookmarks' }).click();
    await page.getByRole('heading', { level: 1, name: 'Bookmarks' }).waitFor();
    const saved = page.getByRole('listitem').filter({ hasText: 'Primitive types' });
    await saved.waitFor();
    expect(await saved.innerText()).toContain('TypeScript Fundamentals');
    expect(await saved.getByRole('link', { name: 'Primitive types' }).getAttribute('href')).toBe(primitives.path);
    await keepScreenshot(page, 'storefront-bookmarks');

    // What the database holds.
    const progress = await LessonProgress.query(db).where({ userId: user.id }).orderBy('completedAt');
    expect(progress.map((p) => [p.lessonId, Boolean(p.completedAt)])).toEqual([
      [welcome.id, true],
      [mistakes.id, true],
    ]);
    const bookmarks = await Bookmark.query(db).where({ userId: user.id });
    expect(bookmarks.map((b) => [b.resourceId, b.type])).toEqual([[primitives.id, 'bookmark']]);
    expect(bookmarks[0]!.fields).toMatchObject({
      courseSlug: demo.course.fields.slug,
      courseTitle: 'TypeScript Fundamentals',
    });
    const posted = await Comment.query(db).where({ userId: user.id });
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({
      text: 'Is bigint a primitive too? (and symbol?)',
      context: { resourceId: primitives.id },
    });
    expect(posted[0]!.editedAt).toBeTruthy();

    // Removing the bookmark, and the empty state.
    await saved.getByRole('button', { name: 'Remove' }).click();
    await page.getByText('No bookmarks yet.').waitFor();
    expect(await Bookmark.query(db).where({ userId: user.id }).resultSize()).toBe(0);

    // Un-completing lesson 2 makes it the one to continue with.
    await page.goto(`${baseUrl}${mistakes.path}`);
    await page.getByRole('button', { name: 'Mark incomplete' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Marked not complete. Getting started: 1 of 4 lessons done.' })
      .waitFor();
    expect(
      (await LessonProgress.query(db).findOne({ userId: user.id, lessonId: mistakes.id }))!.completedAt,
    ).toBeNull();
    await page.goto(`${baseUrl}${demo.path}`);
    await expect
      .poll(() => page.getByRole('link', { name: 'Continue where you left off' }).getAttribute('href'))
      .toBe(mistakes.path);
    await context.close();
  });

  it('explains each lock: sign in, buy, and a regional price used abroad, with the way to get access', async () => {
    const { browser, baseUrl, db } = site();
    const demo = await demoCourse(db);
    const paid = await demo.lesson('Arrays and tuples');
    const free = await demo.lesson('Union types');

    // A visitor: the outline shows locks, a paid lesson asks to sign in or buy, a free one opens.
    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();
    await visitor.goto(`${baseUrl}${demo.path}`);
    await visitor.getByRole('heading', { name: 'Sign in to study this course' }).waitFor();
    expect(await visitor.getByText('Locked:').count()).toBe(6); // 9 lessons, 3 open to everyone
    expect(await visitor.getByRole('link', { name: 'Buy TypeScript Fundamentals' }).getAttribute('href')).toBe(
      '/products/typescript-fundamentals',
    );
    await visitor.goto(`${baseUrl}${paid.path}`);
    await visitor.getByRole('heading', { name: 'Sign in to study this lesson' }).waitFor();
    expect(
      await visitor.getByRole('main').getByRole('link', { name: 'Sign in', exact: true }).getAttribute('href'),
    ).toBe(`/login?${new URLSearchParams({ redirectTo: paid.path })}`);
    expect(await visitor.getByText('Lists of one type').count()).toBe(0);
    expect(await visitor.getByRole('region', { name: /^Comments/ }).count()).toBe(0);
    await keepScreenshot(visitor, 'storefront-lesson-locked');
    await visitor.goto(`${baseUrl}${free.path}`);
    await visitor.getByText('A value that is one of several types.').waitFor();
    await visitor.getByText('to keep track of the lessons you complete').waitFor();
    expect(await visitor.getByRole('button', { name: 'Mark complete' }).count()).toBe(0);
    await visitorContext.close();

    // Signed in without a purchase: buy, or take a team seat.
    const { context: newcomerContext, page: newcomer } = await learnerWith(site(), 'newcomer@example.com', null);
    await newcomer.goto(`${baseUrl}${paid.path}`);
    await newcomer.getByRole('heading', { name: 'This lesson is for learners who bought the course' }).waitFor();
    await newcomer.getByText('Has your team bought seats?').waitFor();
    expect(await newcomer.getByRole('link', { name: 'Buy TypeScript Pro' }).getAttribute('href')).toBe(
      '/products/typescript-pro',
    );
    await newcomerContext.close();

    // A regional purchase for India, used from the United States (the test server's country).
    const { context: abroadContext, page: abroad } = await learnerWith(
      site(),
      'abroad@example.com',
      'typescript-fundamentals',
      {
        status: 'Restricted',
        country: 'IN',
      },
    );
    await abroad.goto(`${baseUrl}${paid.path}`);
    await abroad.getByRole('heading', { name: 'Your regional price works in India only' }).waitFor();
    // Nothing was paid for this regional copy, so unlocking it costs the full price (less the sale).
    expect(await abroad.getByRole('link', { name: 'Unlock full access for $39.20' }).getAttribute('href')).toBe(
      '/products/typescript-fundamentals',
    );
    await keepScreenshot(abroad, 'storefront-lesson-region');
    await abroadContext.close();
  });

  it('applies the theme and lesson text size at once and keeps them in the account preferences', async () => {
    const { baseUrl, db } = site();
    const { page, user, context } = await learnerWith(site(), 'settings@example.com', null);
    const theme = () => page.evaluate<string | undefined>('document.documentElement.dataset.theme');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${baseUrl}/`);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    // Signed in, the device's time zone became the one of the account's emails; settings show it.
    const deviceZone = await page.evaluate<string>('Intl.DateTimeFormat().resolvedOptions().timeZone');
    await expect
      .poll(async () => (await db('userPrefs').where({ userId: user.id, type: 'global' }).first())?.fields)
      .toEqual({ timeZone: deviceZone });
    const zoneField = page.getByRole('combobox', { name: 'Time zone' });
    expect(await zoneField.inputValue()).toBe(deviceZone);
    expect(await page.getByRole('radio', { name: 'Same as my device' }).isChecked()).toBe(true);
    expect(await page.getByText('How lesson videos play for you, on every device you sign in on.').count()).toBe(1);
    const lightBackground = await page.evaluate<string>('getComputedStyle(document.documentElement).backgroundColor');

    await page.getByRole('radio', { name: 'Dark' }).check();
    expect(await theme()).toBe('dark'); // at once, before the save answers
    expect(await page.evaluate<string>('getComputedStyle(document.documentElement).backgroundColor')).not.toBe(
      lightBackground,
    );
    await page.getByRole('status').filter({ hasText: 'Saved to your account.' }).waitFor();
    await page.getByRole('radio', { name: 'Large' }).check();
    await page.getByRole('combobox', { name: 'Playback speed' }).selectOption('1.5');
    await page.getByRole('checkbox', { name: 'Play the next lesson’s video automatically' }).check();
    await zoneField.selectOption('Asia/Tokyo');
    await page.getByRole('status').filter({ hasText: 'Saved to your account.' }).waitFor();
    expect(await page.evaluate<string | undefined>('document.documentElement.dataset.reading')).toBe('large');
    await keepScreenshot(page, 'storefront-settings-dark');
    await expect
      .poll(async () => (await db('userPrefs').where({ userId: user.id, type: 'global' }).first())?.fields)
      .toEqual({
        theme: 'dark',
        reading: { fontSize: 'large' },
        video: { playbackRate: 1.5, autoplayNext: true },
        timeZone: 'Asia/Tokyo',
      });

    // Another browser of the same learner gets the look from the account.
    const other = await context
      .browser()!
      .newContext({ storageState: { cookies: await context.cookies(), origins: [] } });
    const elsewhere = await other.newPage();
    await elsewhere.goto(`${baseUrl}/`);
    await expect
      .poll(() => elsewhere.evaluate<string | undefined>('document.documentElement.dataset.theme'))
      .toBe('dark');
    await other.close();
    await context.close();
  });

  it("says how long to wait once a learner has posted the minute's comments, and keeps what they wrote", async () => {
    const { baseUrl, db } = site();
    const { page, user, context } = await learnerWith(site(), 'talkative@example.com', 'typescript-fundamentals');
    const lesson = await (await demoCourse(db)).lesson('Primitive types');
    // The minute's ten already posted (tests/api/comment-limits.test.ts counts them one by one), this minute and the next.
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    await db('rateLimitHits').insert(
      [0, 60_000].map((ahead) => ({
        bucket: `comment:user:${user.id}`,
        windowStart: new Date(minute + ahead),
        hits: 10,
      })),
    );

    await page.goto(`${baseUrl}${lesson.path}`);
    const comments = page.getByRole('region', { name: /^Comments/ });
    const field = comments.getByRole('textbox', { name: 'Add a comment' });
    await field.fill('One more thought');
    await comments.getByRole('button', { name: 'Post comment' }).click();
    await comments
      .getByRole('alert')
      .filter({
        hasText:
          /^You have posted a lot in the last minute\. Wait (\d+ seconds?|1 minute), then post again: your text is still here\.$/,
      })
      .waitFor();
    expect(await field.inputValue()).toBe('One more thought');
    expect(await Comment.query(db).where({ userId: user.id })).toEqual([]);
    await keepScreenshot(page, 'storefront-lesson-comments-rate-limited');
    await context.close();
  });
});
