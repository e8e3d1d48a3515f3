import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '../../api/src/identity/models';
import { sessions } from '../../api/src/identity/sign-in/sessions';
import { createCourse, createProduct, createPurchase, createUser } from '../../seeds/factories';
import { runSeeds } from '../../seeds/run';
import { keepScreenshot, signedInContext, useDemoSite, chooseOption } from '../support/browser';

const SPAM = 'Buy cheap watches at spam.example, best prices!!!';
const KIND = 'Great lesson, the examples made unions click for me.';
const REASON = 'Advertising: not about the lesson';

interface StoreComment {
  id: string;
  text: string;
  mine: boolean;
  hidden: { reason: string | null } | null;
}

describe('comment moderation in the console (Chromium)', () => {
  const site = useDemoSite((db) => runSeeds(db, { demo: true }));
  const contexts: BrowserContext[] = [];
  let lessonId: string;
  let author: User;
  let reader: User;
  let spamId: string;

  /** A browser context signed in as an existing user (a learner who bought the course). */
  async function contextOf(user: User): Promise<BrowserContext> {
    const { db, browser, baseUrl } = site();
    const session = await sessions({ db, clock: { now: () => new Date() } }).create(
      db,
      user.id,
      'browser test',
      'email',
    );
    const context = await browser.newContext();
    await context.addCookies([
      { name: 'lp_session', value: session.token, url: baseUrl, httpOnly: true, sameSite: 'Lax' },
      { name: 'lp_csrf', value: session.csrfToken, url: baseUrl, sameSite: 'Lax' },
    ]);
    contexts.push(context);
    return context;
  }

  /** The lesson's thread as the storefront's API answers it to this context's user. */
  async function threadFor(context: BrowserContext): Promise<StoreComment[]> {
    const response = await context.request.get(`${site().baseUrl}/api/store/lessons/${lessonId}/comments`);
    expect(response.status()).toBe(200);
    return ((await response.json()) as { data: StoreComment[] }).data;
  }

  beforeAll(async () => {
    const { db } = site();
    const product = await createProduct(db, { name: 'Moderated Course', unitAmount: 2900 });
    const { lessons } = await createCourse(
      db,
      {
        title: 'Moderation 101',
        modules: [
          {
            title: 'Basics',
            sections: [
              {
                title: 'Start',
                lessons: [
                  { title: 'Welcome', body: '<p>Hello.</p>' },
                  { title: 'Paid lesson', body: '<p>Only for buyers.</p>' },
                ],
              },
            ],
          },
        ],
      },
      { products: [product] },
    );
    lessonId = lessons[1]!.id; // not the first lesson of its module: open to buyers only
    author = await createUser(db, { name: 'Spammy Sam', email: 'spammy.sam@example.com' });
    reader = await createUser(db, { name: 'Reading Rita', email: 'reading.rita@example.com' });
    await createPurchase(db, { user: author, product });
    await createPurchase(db, { user: reader, product });
    [{ id: spamId }] = await db('comments')
      .insert({ userId: author.id, text: SPAM, context: JSON.stringify({ resourceId: lessonId }) })
      .returning('id');
    await db('comments').insert({ userId: reader.id, text: KIND, context: JSON.stringify({ resourceId: lessonId }) });
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
  });

  const dialog = (page: Page) => page.getByRole('dialog');
  const spamRow = (page: Page) => page.getByRole('row').filter({ hasText: 'Buy cheap watches' });
  const commentOf = () => site().db('comments').where({ id: spamId }).first();

  async function chooseHidden(page: Page, option: 'Yes' | 'No' | 'Any') {
    await chooseOption(page, 'Hidden', option, { exact: true });
  }

  it('lets support hide a comment with a reason: learners no longer see it, its author sees why', async () => {
    const { db, baseUrl } = site();
    const readerContext = await contextOf(reader);
    const authorContext = await contextOf(author);
    expect((await threadFor(readerContext)).map((c) => c.text)).toEqual([SPAM, KIND]);

    const supportContext = await signedInContext(site().browser, baseUrl, db, ['support']);
    contexts.push(supportContext);
    const support = (await db('users')
      .whereRaw(`roles @> '{support}'`)
      .whereNot({ email: 'support@example.com' })
      .orderBy('createdAt', 'desc')
      .first())!;
    const page = await supportContext.newPage();
    await page.goto(`${baseUrl}/admin/#/comments`);
    await spamRow(page).waitFor();
    await page.getByText('1-2 of 2').waitFor();
    await spamRow(page).getByRole('link', { name: 'Spammy Sam' }).waitFor(); // the author
    await spamRow(page).getByRole('link', { name: 'Paid lesson (Lesson)' }).waitFor(); // the lesson

    await spamRow(page).getByRole('button', { name: 'Hide', exact: true }).click();
    await dialog(page).getByRole('heading', { name: 'Hide comment' }).waitFor();
    await dialog(page).getByText('Hide this comment from learners?').waitFor();
    await dialog(page).getByText(SPAM).waitFor(); // the comment quoted, so nobody hides the wrong one
    await dialog(page).getByLabel('Reason (optional)').fill(REASON);
    await keepScreenshot(page, 'console-comment-hide');
    await dialog(page).getByRole('button', { name: 'Hide comment' }).click();
    await page.getByText('Comment hidden. Learners no longer see it').waitFor();
    await dialog(page).waitFor({ state: 'detached' });
    expect(page.url()).toMatch(/#\/comments$/); // the click stayed in the row: still on the list

    // The row now says Hidden, with the reason, and offers Show again.
    await spamRow(page).getByText('Hidden', { exact: true }).waitFor();
    await spamRow(page).getByText(REASON).waitFor();
    await spamRow(page).getByRole('button', { name: 'Show again' }).waitFor();
    await keepScreenshot(page, 'console-comments-moderated');

    const hidden = await commentOf();
    expect(hidden.hiddenAt).toBeInstanceOf(Date);
    expect(hidden).toMatchObject({ hiddenReason: REASON, hiddenById: support.id, text: SPAM });
    expect(await db('auditLogs').where({ recordId: spamId }).select('action', 'actorId', 'resource', 'after')).toEqual([
      expect.objectContaining({
        action: 'comment.hidden',
        actorId: support.id,
        resource: 'comments',
        after: expect.objectContaining({ hiddenReason: REASON }),
      }),
    ]);

    // Another buyer of the course no longer gets it; its author still does, marked hidden, with the reason.
    expect((await threadFor(readerContext)).map((c) => c.text)).toEqual([KIND]);
    const authorView = await threadFor(authorContext);
    expect(authorView.find((c) => c.id === spamId)).toMatchObject({
      text: SPAM,
      mine: true,
      hidden: { reason: REASON },
    });

    // The Hidden filter.
    await chooseHidden(page, 'Yes');
    await page.getByText('1-1 of 1').waitFor();
    await spamRow(page).waitFor();
    await chooseHidden(page, 'No');
    await page.getByText(KIND).waitFor();
    await page.getByText('1-1 of 1').waitFor();
    expect(await spamRow(page).count()).toBe(0);
    await chooseHidden(page, 'Any');
    await page.getByText('1-2 of 2').waitFor();

    // The comment's page: the chip and reason, and Show again.
    await spamRow(page).getByText('Buy cheap watches').click();
    await page.waitForURL(new RegExp(`#/comments/${spamId}/show$`));
    await page.getByText(REASON).waitFor();
    await page.getByText('Hidden', { exact: true }).first().waitFor();
    await keepScreenshot(page, 'console-comment-hidden');
    await page.getByRole('button', { name: 'Show again' }).click();
    await dialog(page).getByText('Show this comment to learners again?').waitFor();
    await dialog(page).getByRole('button', { name: 'Show again' }).click();
    await page.getByText('Comment shown again.').waitFor();
    await page.getByRole('button', { name: 'Hide', exact: true }).waitFor();
    expect(await page.getByText(REASON).count()).toBe(0);

    expect(await commentOf()).toMatchObject({ hiddenAt: null, hiddenReason: null, hiddenById: null });
    expect((await db('auditLogs').where({ recordId: spamId }).orderBy('createdAt')).map((a) => a.action)).toEqual([
      'comment.hidden',
      'comment.shown',
    ]);
    expect((await threadFor(readerContext)).map((c) => c.text)).toEqual([SPAM, KIND]);
  });

  it('gives finance no Comments menu item', async () => {
    const context = await signedInContext(site().browser, site().baseUrl, site().db, ['finance']);
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${site().baseUrl}/admin/`);
    await page.getByRole('menuitem', { name: 'Users' }).waitFor();
    const items = await page.getByRole('menuitem').allInnerTexts();
    expect(items).toContain('Finance');
    expect(items).not.toContain('Comments');
  });
});
