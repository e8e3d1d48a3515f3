import type { Browser, BrowserContextOptions } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ContentResource, Product, User } from '../support/models';
import { sessions } from '../../api/src/identity/sign-in/sessions';
import { createPurchase, createUser } from '../../seeds/factories';
import { checkScreen, useDemoSite } from '../support/browser';

const JOIN = 'https://meet.example.com/type-level-workshop';

/** A browser context signed in as this person, in a given time zone. */
async function contextAs(
  browser: Browser,
  baseUrl: string,
  db: Parameters<typeof createUser>[0],
  user: User,
  options: BrowserContextOptions = {},
) {
  const session = await sessions({ db, clock: { now: () => new Date() } }).create(db, user.id, 'browser test', 'email');
  const context = await browser.newContext(options);
  await context.addCookies([
    { name: 'lp_session', value: session.token, url: baseUrl, httpOnly: true, sameSite: 'Lax' },
    { name: 'lp_csrf', value: session.csrfToken, url: baseUrl, sameSite: 'Lax' },
  ]);
  return context;
}

/** The day ("Mon, Mar 15") and the time ("2:00") of an instant in `timeZone`, as an en-US page shows them. */
const dayAndTimeIn = (date: Date, timeZone: string) => [
  new Intl.DateTimeFormat('en-US', { weekday: 'short', month: 'short', day: 'numeric', timeZone }).format(date),
  new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', hour12: true, timeZone })
    .format(date)
    .replace(/\s*[AP]M$/, ''),
];

describe('live workshops and comments on the storefront and in the console (Chromium)', () => {
  const site = useDemoSite();
  let workshop: Product;

  beforeAll(async () => {
    workshop = (await Product.query(site().db).findOne({ key: 'type-level-workshop' }))!;
  });

  it('adds, edits and deletes a session from the workshop’s Sessions tab', async () => {
    const { browser, baseUrl, db } = site();
    const support = await createUser(db, { roles: ['support'] });
    const context = await contextAs(browser, baseUrl, db, support, { timezoneId: 'UTC' });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/admin/#/products/${workshop.id}/show/sessions`);
    await page.getByRole('cell', { name: 'Day 1: Conditional and mapped types' }).waitFor();
    await page.getByRole('cell', { name: 'Day 2: Template literal types and Q&A' }).waitFor();
    await checkScreen(page, 'console-workshop-sessions');

    await page.getByRole('link', { name: 'Add session' }).click();
    // The form's field, not the list's "Sort by title" still on screen while the form loads.
    await page.getByRole('textbox', { name: 'Title' }).fill('Office hours');
    await page.getByLabel('Starts').fill('2030-03-01T15:00');
    await page.getByLabel('Ends').fill('2030-03-01T16:30');
    // Four hundred zones: typing narrows them.
    const zone = page.getByRole('combobox', { name: 'Time zone' });
    await zone.fill('Tokyo');
    await page.getByRole('option', { name: 'Asia/Tokyo', exact: true }).click();
    await page.getByLabel('Join link').fill('http://meet.example.com/office');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Must be an https:// link.').waitFor();
    await page.getByLabel('Join link').fill('https://meet.example.com/office');
    await checkScreen(page, 'console-workshop-session-form');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(new RegExp(`#/products/${workshop.id}/show/sessions$`));
    await page.getByRole('cell', { name: 'Office hours' }).waitFor();
    const created = await db('workshopSessions').where({ title: 'Office hours' }).first();
    expect(created).toMatchObject({
      productId: workshop.id,
      timeZone: 'Asia/Tokyo',
      joinUrl: 'https://meet.example.com/office',
    });
    expect(created.startsAt.toISOString()).toBe('2030-03-01T15:00:00.000Z');
    expect(created.endsAt.toISOString()).toBe('2030-03-01T16:30:00.000Z');

    // Edit: the title; an end before the start is refused under the field.
    await page.getByRole('row').filter({ hasText: 'Office hours' }).getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('textbox', { name: 'Title' }).fill('Office hours (Q&A)');
    await page.getByLabel('Ends').fill('2030-03-01T14:00');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('must be after the start').waitFor();
    await page.getByLabel('Ends').fill('2030-03-01T17:00');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(new RegExp(`#/products/${workshop.id}/show/sessions$`));
    await page.getByRole('cell', { name: 'Office hours (Q&A)' }).waitFor();
    await expect
      .poll(async () => (await db('workshopSessions').where({ id: created.id }).first()).endsAt.toISOString())
      .toBe('2030-03-01T17:00:00.000Z');

    // Delete, after confirming.
    await page
      .getByRole('row')
      .filter({ hasText: 'Office hours (Q&A)' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page.getByRole('dialog').getByText('Delete this session?').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(async () => db('workshopSessions').where({ id: created.id }).first()).toBeUndefined();
    await context.close();
  });

  it('shows the schedule on the product page in the visitor’s time zone, naming the workshop’s, without the join link', async () => {
    const { browser, baseUrl, db } = site();
    const context = await browser.newContext({ timezoneId: 'Asia/Tokyo', locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/products/${workshop.slug}`);
    const schedule = page.getByRole('region', { name: 'Schedule' });
    await schedule.getByRole('heading', { name: 'Day 1: Conditional and mapped types' }).waitFor();
    await schedule.getByText('Times are in your time zone (Asia/Tokyo).').waitFor();
    const [day1] = await db('workshopSessions').where({ productId: workshop.id }).orderBy('startsAt');
    const item = schedule.getByRole('listitem').filter({ hasText: 'Day 1' });
    const text = (await item.innerText()).replace(/\s/g, ' ');
    for (const zone of ['Asia/Tokyo', 'America/New_York']) {
      for (const part of dayAndTimeIn(day1.startsAt, zone)) expect(text, zone).toContain(part);
    }
    expect(text).toContain('in America/New_York, where the workshop runs');
    expect(await page.content()).not.toContain('meet.example.com');
    await checkScreen(page, 'storefront-workshop-schedule', { axe: true });
    await context.close();
  });

  it('gives a holder the next session, its join link and calendar invite in My learning; others get neither', async () => {
    const { browser, baseUrl, db } = site();
    const holder = await createUser(db, { email: 'workshop-holder@example.com' });
    await createPurchase(db, { user: holder, product: workshop });
    const context = await contextAs(browser, baseUrl, db, holder, { timezoneId: 'Europe/Paris', locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/learning`);
    const workshops = page.getByRole('region', { name: 'Live workshops' });
    await workshops.getByRole('link', { name: workshop.name }).waitFor();
    await workshops.getByText('Day 1: Conditional and mapped types').waitFor();
    const join = workshops.getByRole('link', { name: 'Join the session' });
    expect(await join.getAttribute('href')).toBe(JOIN);
    const [day1] = await db('workshopSessions').where({ productId: workshop.id }).orderBy('startsAt');
    const invite = workshops.getByRole('link', { name: 'Add to calendar' });
    expect(await invite.getAttribute('href')).toBe(`/api/store/workshops/${day1.id}.ics`);
    const ics = await page.request.get(`${baseUrl}/api/store/workshops/${day1.id}.ics`);
    expect(ics.status()).toBe(200);
    expect(await ics.text()).toContain(`URL:${JOIN}`);
    await workshops.getByText('Later sessions').waitFor();
    await checkScreen(page, 'storefront-my-learning-workshop', { axe: true });
    await context.close();

    const stranger = await createUser(db);
    const other = await contextAs(browser, baseUrl, db, stranger);
    const otherPage = await other.newPage();
    await otherPage.goto(`${baseUrl}/learning`);
    await otherPage.getByText('You have no courses yet.').waitFor();
    expect(await otherPage.getByRole('region', { name: 'Live workshops' }).count()).toBe(0);
    expect((await otherPage.request.get(`${baseUrl}/api/store/workshops/${day1.id}.ics`)).status()).toBe(403);
    await other.close();
  });

  it('shows a display name set in settings, the instructor’s badge and a reply under the comment', async () => {
    const { browser, baseUrl, db } = site();
    const welcome = (await ContentResource.query(db)
      .where({ type: 'lesson' })
      .whereRaw(`fields->>'title' = 'Welcome'`)
      .first())!;
    const course = (await ContentResource.query(db).findOne({ type: 'course' }))!;
    const lessonPath = `/courses/${course.fields.slug}/lessons/${welcome.fields.slug}`;

    // A learner names themselves in settings, then asks a question.
    const learner = await createUser(db, { email: 'commenter@example.com' });
    const learnerContext = await contextAs(browser, baseUrl, db, learner);
    const page = await learnerContext.newPage();
    await page.goto(`${baseUrl}/settings`);
    const name = page.getByLabel('Display name');
    await name.fill('G');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('alert').filter({ hasText: 'at least 2 characters' }).waitFor();
    await name.fill('  Grace   Hopper ');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByText('Saved. Your comments show as Grace Hopper.').waitFor();
    await expect.poll(async () => (await User.query(db).findById(learner.id))!.name).toBe('Grace Hopper');
    await checkScreen(page, 'storefront-settings-display-name', { axe: true });

    await page.goto(`${baseUrl}${lessonPath}`);
    const comments = page.getByRole('region', { name: /^Comments/ });
    await comments.getByText('Your comments show as').waitFor();
    await comments.getByRole('textbox', { name: 'Add a comment' }).fill('Does this course cover generics?');
    await comments.getByRole('button', { name: 'Post comment' }).click();
    const question = comments.getByRole('listitem').filter({ hasText: 'Does this course cover generics?' }).first();
    await question.getByText('Grace Hopper').waitFor();
    expect(await question.getByText('Instructor').count()).toBe(0);

    // The course's author answers it, as a reply with the instructor's badge.
    const author = (await User.query(db).findOne({ email: 'contributor@example.com' }))!;
    const authorContext = await contextAs(browser, baseUrl, db, author);
    const authorPage = await authorContext.newPage();
    await authorPage.goto(`${baseUrl}${lessonPath}`);
    const authorComments = authorPage.getByRole('region', { name: /^Comments/ });
    const thread = authorComments.getByRole('listitem').filter({ hasText: 'Does this course cover generics?' }).first();
    await thread.getByRole('button', { name: 'Reply' }).click();
    await thread
      .getByRole('textbox', { name: 'Reply to Grace Hopper' })
      .fill('Yes: the second module, with exercises.');
    await thread.getByRole('button', { name: 'Post reply' }).click();
    await authorComments.getByRole('status').filter({ hasText: 'Your reply is posted.' }).waitFor();
    const replies = thread.getByRole('list', { name: '1 reply' });
    await replies.getByText('Yes: the second module, with exercises.').waitFor();
    await replies.getByText('Instructor').waitFor();
    // A reply takes no reply of its own.
    expect(await replies.getByRole('button', { name: 'Reply' }).count()).toBe(0);
    await authorContext.close();

    // The learner sees the answer under the question.
    await page.reload();
    const answered = comments.getByRole('listitem').filter({ hasText: 'Does this course cover generics?' }).first();
    const reply = answered.getByRole('list', { name: '1 reply' }).getByRole('listitem');
    await reply.getByText('Yes: the second module, with exercises.').waitFor();
    await reply.getByText('Instructor').waitFor();
    await checkScreen(page, 'storefront-comments-replies', { axe: true });
    await learnerContext.close();
  });
});
