import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createServices, type Services } from '../../api/src/services';
import { defaultName } from '../../api/src/shared/shown-name';
import { createCourse, createProduct, createPurchase } from '../../seeds/factories';
import { testConfig, testDeps } from '../support/app';
import { signedIn, type SignedIn } from '../support/auth';
import { ARTIFACTS_DIR, contextFor, seriousViolations, STOREFRONT_WIDTHS, useDemoSite } from '../support/browser';
import { passTime } from '../support/jobs';
import { OutboxEmail, type ContentResource } from '../support/models';

const COURSE = 'Watercolour Washes';
const LESSON = 'Wet on wet';
const BODY = `<p>${'Load the brush, tilt the paper and let the pigment travel. '.repeat(40)}</p>`;

/** What the reader's window shows now, kept as a test artifact when KEEP_SCREENSHOTS=1 (not the whole page). */
async function keepView(page: Page, name: string): Promise<void> {
  if (process.env.KEEP_SCREENSHOTS !== '1') return;
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}.png`), animations: 'disabled' });
}

describe('reply emails and the course-complete email, followed in Chromium', () => {
  let course: ContentResource;
  let lesson: ContentResource;
  let last: ContentResource;
  const site = useDemoSite(async (db) => {
    const product = await createProduct(db, { name: COURSE, unitAmount: 3900 });
    const made = await createCourse(
      db,
      {
        title: COURSE,
        modules: [
          {
            title: 'Washes',
            sections: [
              {
                title: 'Basics',
                lessons: [
                  { title: LESSON, body: BODY },
                  { title: 'Drying times', body: '<p>Wait.</p>' },
                ],
              },
            ],
          },
        ],
      },
      { products: [product] },
    );
    course = made.course;
    [lesson, last] = made.lessons as [ContentResource, ContentResource];
    asker = await signedIn(db, ['learner'], 'asker@example.com');
    answerer = await signedIn(db, ['learner'], 'answerer@example.com');
    // Both signed up by email and never named themselves.
    await db('users').whereIn('id', [asker.user.id, answerer.user.id]).update({ name: null });
    for (const who of [asker, answerer]) await createPurchase(db, { user: who.user, product });
  });
  let asker: SignedIn;
  let answerer: SignedIn;
  let services: Services;
  let question: string;
  let reply: string;

  beforeAll(async () => {
    const { db, baseUrl } = site();
    services = createServices(
      testDeps(db, { config: testConfig({ PUBLIC_URL: baseUrl, COMMENTS_PER_MINUTE: '100' }) }),
    );
    const as = (who: SignedIn) => ({ user: { id: who.user.id }, country: 'US' });
    // A long thread: the reply is far below the lesson, where only the link's scrolling brings it.
    for (let i = 1; i <= 6; i++) await services.comments.post(lesson.id, as(answerer), `Earlier thought number ${i}.`);
    question = (await services.comments.post(lesson.id, as(asker), 'How wet should the paper be?')).id;
    reply = (
      await services.comments.post(
        lesson.id,
        as(answerer),
        'Shiny but not puddled: tilt it and no water should run.',
        question,
      )
    ).id;
    for (let i = 1; i <= 4; i++) await services.comments.post(lesson.id, as(answerer), `Later thought number ${i}.`);
    await passTime(db, 600);
    await services.replyEmails.runDue();
  });

  async function replyEmail() {
    const email = await OutboxEmail.query(site().db).findOne({ toAddress: 'asker@example.com', kind: 'comment-reply' });
    expect(email).toBeDefined();
    const link = (label: RegExp) => new URL(label.exec(email!.textBody!)![1]!);
    return {
      replyLink: link(/Read the reply and answer it: (\S+)/),
      unsubscribeLink: link(/\(one click, no sign-in\): (\S+)/),
    };
  }

  it.each(STOREFRONT_WIDTHS)(
    'the email’s link opens the lesson with the reply in view (%i px)',
    async (width, height) => {
      const { browser, baseUrl } = site();
      const { replyLink } = await replyEmail();
      expect(replyLink.origin).toBe(baseUrl);
      expect(replyLink.pathname).toBe(`/courses/${course.fields.slug}/lessons/${lesson.fields.slug}`);
      expect(replyLink.hash).toBe(`#comment-${reply}`);

      const context = await contextFor(browser, baseUrl, asker, { width, height });
      const page = await context.newPage();
      await page.goto(replyLink.toString());
      const linked = page.locator(`#comment-${reply}`);
      await linked.getByText('Shiny but not puddled').waitFor();
      await expect.poll(() => linked.evaluate((e) => e === document.activeElement)).toBe(true);
      // In the window, whole, not at the top of the page where the lesson starts.
      const box = (await linked.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(height);
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
      expect(await linked.getAttribute('class')).toContain('comment-linked');

      // Two learners without a display name, told apart, the same names as the API gives.
      const thread = page.locator(`#comment-${question}`);
      await expect
        .poll(() => thread.locator('.comment-meta strong').first().textContent())
        .toBe(defaultName(asker.user.id));
      expect(await linked.locator('.comment-meta strong').textContent()).toBe(defaultName(answerer.user.id));
      expect(defaultName(asker.user.id)).not.toBe(defaultName(answerer.user.id));
      expect(await page.content()).not.toContain('answerer@example.com');
      expect(await seriousViolations(page)).toEqual([]);
      await keepView(page, `reply-email-link-${width}`);
      await context.close();
    },
  );

  it.each(STOREFRONT_WIDTHS)('the unsubscribe link works signed out (%i px)', async (width, height) => {
    const { browser, db } = site();
    const { unsubscribeLink } = await replyEmail();
    await db('userPrefs').where({ userId: asker.user.id }).delete(); // on again, for each width
    const context = await browser.newContext({ viewport: { width, height } });
    const page = await context.newPage();
    await page.goto(unsubscribeLink.toString());
    await page.getByRole('heading', { level: 1, name: 'Stop emails about replies?' }).waitFor();
    // Opening it changed nothing (a mail scanner opens links too).
    expect(await db('userPrefs').where({ userId: asker.user.id })).toEqual([]);
    await page.getByRole('button', { name: 'Stop reply emails' }).click();
    await page.getByRole('heading', { level: 1, name: 'Reply emails are off' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    const [prefs] = await db('userPrefs').where({ userId: asker.user.id, type: 'global' });
    expect(prefs.fields).toEqual({ emails: { replies: false } });
    await keepView(page, `reply-email-unsubscribed-${width}`);
    await context.close();
  });

  it('Settings shows the choice and turns reply emails back on', async () => {
    const { browser, baseUrl, db } = site();
    const context = await contextFor(browser, baseUrl, asker, { width: 390, height: 844 });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/settings`);
    const box = page.getByRole('checkbox', { name: 'Email me when someone replies to my comment' });
    await box.waitFor();
    expect(await box.isChecked()).toBe(false);
    await box.check();
    await page.getByText('Saved to your account.').waitFor();
    const [prefs] = await db('userPrefs').where({ userId: asker.user.id, type: 'global' });
    expect(prefs.fields.emails).toEqual({ replies: true });
    await page.getByRole('group', { name: 'Emails' }).scrollIntoViewIfNeeded();
    await keepView(page, 'reply-email-settings-390');
    await context.close();
  });

  it('the course-complete email’s links open the certificate’s page and its PDF', async () => {
    const { baseUrl } = site();
    for (const done of [lesson, last])
      await services.learning.setCompleted({ id: answerer.user.id }, done.id, true, 'US', course.id);
    const [email, ...more] = await OutboxEmail.query(site().db).where({
      toAddress: 'answerer@example.com',
      kind: 'course-complete',
    });
    expect(more).toEqual([]);
    const [page, pdf] = [...email!.textBody!.matchAll(/(https?:\/\/\S+\/certificates\/\S+)/g)].map((m) => m[1]!);
    expect(new URL(page!).origin).toBe(baseUrl);
    const html = await fetch(page!);
    expect(html.status).toBe(200);
    expect(await html.text()).toContain(COURSE);
    const file = await fetch(pdf!);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await file.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });
});
