import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { createServices } from '../../api/src/services';
import { userPrefs } from '../../api/src/identity/profile/prefs';
import { createProduct, createPurchase, createResource, linkResource } from '../../seeds/factories';
import type { ContentResource, Product } from '../support/models';
import { testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { manualClock } from '../support/clock';
import { useTestDatabase } from '../support/db';

// Scheduled release (docs/domain.md §11): day N opens at midnight in the reader's zone, N days after the date their
// access began there, DST changes included; a cohort's date opens at that date's midnight in each reader's zone.
describe('scheduled release (drip)', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const clock = manualClock(new Date('2026-10-01T00:00:00Z'));
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let product: Product;
  let slug: string;
  const lesson: Record<string, ContentResource> = {};

  beforeAll(async () => {
    const deps = testDeps(db(), { clock });
    app = createApp(deps, { services: createServices(deps) }).callback();
    product = await createProduct(db(), { name: 'Cohort course' });
    const course = await createResource(db(), 'course', { title: 'Cohort course' });
    slug = course.fields.slug!;
    const module = async (title: string, position: number, metadata = {}) => {
      const node = await createResource(db(), 'module', { title });
      await linkResource(db(), course, node, position, metadata);
      return node;
    };
    const add = async (parent: ContentResource, title: string, position: number, metadata = {}) => {
      lesson[title] = await createResource(db(), 'lesson', { title, body: `<p>${title} body</p>` });
      await linkResource(db(), parent, lesson[title], position, metadata);
    };
    const first = await module('Week one', 0);
    await add(first, 'Welcome', 0);
    await add(first, 'Basics', 1);
    // A lesson of the first week released to the whole cohort on a date.
    await add(first, 'Live recap', 2, { releaseOn: '2026-11-10' });
    // The second week opens three days after each learner starts; its first lesson is a free preview.
    const second = await module('Week two', 1, { releaseAfterDays: 3 });
    await add(second, 'Preview', 0);
    await add(second, 'Deeper', 1);
    await db()('productContentResources').insert({ productId: product.id, resourceId: course.id, position: 0 });
  });

  /** A learner in `zone` who bought the course at `boughtAt`. */
  async function learnerIn(zone: string, boughtAt: string): Promise<SignedIn> {
    const learner = await signedIn(db());
    await userPrefs({ db: db() }).setTimeZone(learner.user.id, zone);
    await createPurchase(db(), { user: learner.user, product, createdAt: new Date(boughtAt) });
    return learner;
  }
  const lessonAt = async (who: SignedIn | undefined, title: string, at: string) => {
    clock.set(new Date(at));
    return as(who, request(app).get(`/api/store/courses/${slug}/lessons/${lesson[title]!.id}`));
  };
  const closedUntil = async (who: SignedIn, title: string, opensAt: string, on: string) => {
    const before = await lessonAt(who, title, new Date(new Date(opensAt).getTime() - 1000).toISOString());
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ open: false, body: null, content: null, lock: null });
    expect(before.body.opens).toMatchObject({ on, at: opensAt });
    expect(JSON.stringify(before.body)).not.toContain(`${title} body`);
    const after = await lessonAt(who, title, opensAt);
    expect(after.body).toMatchObject({ open: true, body: `<p>${title} body</p>`, opens: null });
  };

  it('opens day 3 at local midnight across the end of daylight time in Los Angeles', async () => {
    // Bought at 10:00 PDT on Friday 30 October; clocks go back on 1 November; day 3 is 2 November, 00:00 PST.
    const learner = await learnerIn('America/Los_Angeles', '2026-10-30T17:00:00Z');
    await closedUntil(learner, 'Deeper', '2026-11-02T08:00:00.000Z', '2026-11-02');
  });

  it('opens day 3 at local midnight across the start of daylight time in Auckland', async () => {
    // Bought at 00:30 NZST on 26 September; clocks go forward on the 27th; day 3 is 29 September, 00:00 NZDT.
    const learner = await learnerIn('Pacific/Auckland', '2026-09-25T12:30:00Z');
    await closedUntil(learner, 'Deeper', '2026-09-28T11:00:00.000Z', '2026-09-29');
  });

  it('counts days from the date it was in Kolkata when bought (half-hour offset, no DST)', async () => {
    // 20:00 UTC on 31 October is already 1 November, 01:30 IST there.
    const learner = await learnerIn('Asia/Kolkata', '2026-10-31T20:00:00Z');
    await closedUntil(learner, 'Deeper', '2026-11-03T18:30:00.000Z', '2026-11-04');
  });

  it("opens a cohort's date at midnight in each reader's zone", async () => {
    const angeleno = await learnerIn('America/Los_Angeles', '2026-10-01T17:00:00Z');
    const kiwi = await learnerIn('Pacific/Auckland', '2026-10-01T17:00:00Z');
    await closedUntil(angeleno, 'Live recap', '2026-11-10T08:00:00.000Z', '2026-11-10');
    await closedUntil(kiwi, 'Live recap', '2026-11-09T11:00:00.000Z', '2026-11-10');
  });

  it('shows the outline with what opens when, and refuses progress on a lesson not open yet', async () => {
    const learner = await learnerIn('America/Los_Angeles', '2026-10-30T17:00:00Z');
    clock.set(new Date('2026-11-01T12:00:00Z'));
    const outline = await as(learner, request(app).get(`/api/store/courses/${slug}`));
    expect(outline.body.access).toEqual({ full: true });
    const [week1, week2] = outline.body.modules;
    expect(week1.opens).toBeNull();
    expect(week2.opens).toMatchObject({ on: '2026-11-02', timeZone: 'America/Los_Angeles' });
    const items = (m: { lessons: { title: string; open: boolean; opens: { on: string } | null }[] }) =>
      m.lessons.map((l) => [l.title, l.open, l.opens?.on ?? null]);
    expect(items(week1)).toEqual([
      ['Welcome', true, null],
      ['Basics', true, null],
      ['Live recap', false, '2026-11-10'],
    ]);
    expect(items(week2)).toEqual([
      ['Preview', false, '2026-11-02'],
      ['Deeper', false, '2026-11-02'],
    ]);
    const refused = await as(learner, request(app).put(`/api/store/progress/lessons/${lesson.Deeper!.id}`)).send({});
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('lesson-not-open-yet');
    clock.set(new Date('2026-11-02T08:00:00Z'));
    const done = await as(learner, request(app).put(`/api/store/progress/lessons/${lesson.Deeper!.id}`)).send({});
    expect(done.status).toBe(200);
  });

  it('keeps a dripped free preview closed to a visitor, with no date (it counts from a start they have not made)', async () => {
    const preview = await lessonAt(undefined, 'Preview', '2026-12-01T00:00:00Z');
    expect(preview.body).toMatchObject({ open: false, body: null, opens: { on: null, afterDays: 3 } });
    // The first week's first lesson is still the course's open preview.
    expect((await lessonAt(undefined, 'Welcome', '2026-12-01T00:00:00Z')).body).toMatchObject({ open: true });
  });

  it('is set on a link in the console: days after the start or a date, not both', async () => {
    const admin = await signedIn(db(), ['admin']);
    const link = await db()('contentResourceResources').where({ resourceId: lesson.Basics!.id }).first();
    const put = (metadata: object) =>
      as(admin, request(app).put(`/api/admin/content-resource-resources/${link.id}`)).send({ position: 1, metadata });
    const both = await put({ releaseAfterDays: 7, releaseOn: '2026-12-01' });
    expect(both.status).toBe(400);
    expect(Object.keys(both.body.errors)).toEqual(['metadata.releaseOn']);
    expect((await put({ releaseAfterDays: 0 })).status).toBe(400);
    expect((await put({ releaseOn: '2026-02-30' })).status).toBe(400);
    const saved = await put({ tier: 'paid', releaseAfterDays: 7, releaseOn: null });
    expect(saved.status).toBe(200);
    expect(saved.body.metadata).toEqual({ tier: 'paid', releaseAfterDays: 7, releaseOn: null });
    const learner = await learnerIn('UTC', '2026-10-01T09:00:00Z');
    expect((await lessonAt(learner, 'Basics', '2026-10-07T23:59:59Z')).body.opens).toMatchObject({ on: '2026-10-08' });
    expect((await lessonAt(learner, 'Basics', '2026-10-08T00:00:00Z')).body.open).toBe(true);
    await put({ releaseAfterDays: null, releaseOn: null });
  });

  it('emails each learner once when a week opens, however many replicas sweep at once; the link lands on its open lesson', async () => {
    const learner = await learnerIn('America/Los_Angeles', '2026-10-30T17:00:00Z');
    const replicas = [1, 2, 3].map(() => createServices(testDeps(db(), { clock })).releaseEmails);
    const theirs = () =>
      db()('outboxEmails')
        .where({ toAddress: learner.user.email, kind: 'release-opened' })
        .select('subject', 'textBody');
    const sweepAll = () => Promise.all(replicas.map((r) => r.sendDue()));

    clock.set(new Date('2026-11-02T07:59:59Z'));
    await sweepAll();
    expect(await theirs()).toEqual([]);
    clock.set(new Date('2026-11-02T08:04:00Z'));
    await sweepAll();
    await sweepAll();
    const emails = await theirs();
    expect(emails).toHaveLength(1);
    expect(emails[0].subject).toBe('Now open: Week two (Cohort course)');
    const link = new URL(/Start the module: (\S+)/.exec(emails[0].textBody)![1]!);
    expect(link.pathname).toMatch(new RegExp(`^/courses/${slug}/lessons/`));
    const landed = await as(learner, request(app).get(`/api/store${link.pathname}`));
    expect(landed.body).toMatchObject({ open: true, lesson: { title: 'Preview' }, body: '<p>Preview body</p>' });
  });

  it("shows in the pricing simulator what a purchase made now releases later, in the customer's zone", async () => {
    const admin = await signedIn(db(), ['admin']);
    const customer = await signedIn(db());
    await userPrefs({ db: db() }).setTimeZone(customer.user.id, 'America/Los_Angeles');
    // 04:00 on 20 November in Los Angeles: day 3 is the 23rd there; the cohort's 10 November is past.
    clock.set(new Date('2026-11-20T12:00:00Z'));
    const simulate = (userId?: string) =>
      as(admin, request(app).get('/api/admin/pricing/simulate')).query({
        productId: product.id,
        country: 'US',
        ...(userId ? { userId } : {}),
      });
    const answer = await simulate(customer.user.id);
    expect(answer.status).toBe(200);
    expect(answer.body.releases).toEqual([
      expect.objectContaining({
        title: 'Week two',
        what: 'module',
        courseTitle: 'Cohort course',
        opensOn: '2026-11-23',
        opensAt: '2026-11-23T08:00:00.000Z',
        timeZone: 'America/Los_Angeles',
      }),
    ]);
    // A visitor's dates are in UTC.
    expect((await simulate()).body.releases).toEqual([
      expect.objectContaining({ title: 'Week two', opensOn: '2026-11-23', timeZone: 'UTC' }),
    ]);
  });

  it("shows support viewing as a learner what is open to them and what opens when, in the learner's zone", async () => {
    const learner = await learnerIn('Pacific/Auckland', '2026-09-25T12:30:00Z');
    const support = await signedIn(db(), ['support']);
    clock.set(new Date('2026-09-28T10:00:00Z'));
    const started = await as(support, request(app).post(`/api/admin/users/${learner.user.id}/view-as`)).send({
      reason: 'Ticket 7: when does week two open?',
    });
    expect(started.status).toBe(201);
    const token = ([] as string[])
      .concat(started.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('lp_view_as='))!
      .split(';')[0];
    const viewing = { ...support, cookie: `${support.cookie}; ${token}` };
    const outline = (await as(viewing, request(app).get(`/api/store/courses/${slug}`))).body;
    expect(outline.modules[1].opens).toMatchObject({ on: '2026-09-29', timeZone: 'Pacific/Auckland' });
    expect(outline.modules[0].lessons.map((l: { open: boolean }) => l.open)).toEqual([true, true, false]);
    const lessonView = await as(viewing, request(app).get(`/api/store/courses/${slug}/lessons/${lesson.Deeper!.id}`));
    expect(lessonView.body).toMatchObject({ open: false, body: null, opens: { on: '2026-09-29' } });
  });

  it("finds a lesson not open yet by its title alone: its body never reaches its buyer's snippets until its day", async () => {
    const learner = await learnerIn('Asia/Kolkata', '2026-10-01T10:00:00Z');
    type Found = { title: string; snippet: string | null }[];
    const search = async (who: SignedIn | undefined, q: string, at: string): Promise<Found> => {
      clock.set(new Date(at));
      const answer = await as(who, request(app).get('/api/store/search').query({ q }));
      expect(answer.status).toBe(200);
      return answer.body.data;
    };
    const lessonsFound = (found: Found) => found.filter((r) => r.title in lesson);
    // Week two opens on 4 October at midnight in Kolkata (18:30 UTC on the 3rd); the cohort's recap on 10 November.
    const before = lessonsFound(await search(learner, 'body', '2026-10-03T18:29:59Z'));
    expect(before.map((r) => r.title).sort()).toEqual(['Basics', 'Welcome']);
    for (const title of ['Deeper', 'Preview', 'Live recap'])
      expect(await search(learner, title, '2026-10-03T18:29:59Z')).toContainEqual({
        type: 'lesson',
        title,
        url: expect.any(String),
        snippet: null,
      });
    const after = lessonsFound(await search(learner, 'body', '2026-10-03T18:30:00Z'));
    expect(after.map((r) => r.title).sort()).toEqual(['Basics', 'Deeper', 'Preview', 'Welcome']);
    expect(after.find((r) => r.title === 'Deeper')!.snippet).toBe('Deeper <mark>body</mark>');
    // A visitor: the dripped free preview stays closed, found by its title only.
    expect(lessonsFound(await search(undefined, 'body', '2026-12-01T00:00:00Z')).map((r) => r.title)).toEqual([
      'Welcome',
    ]);
    expect((await search(undefined, 'preview', '2026-12-01T00:00:00Z')).find((r) => r.title === 'Preview')).toEqual(
      expect.objectContaining({ snippet: null }),
    );
  });

  it('emails a release only to learners who had the course before it opened and have it still, and only while published', async () => {
    const onTime = await learnerIn('UTC', '2026-11-08T12:00:00Z');
    const late = await learnerIn('UTC', '2026-11-10T00:02:00Z');
    const refunded = await learnerIn('UTC', '2026-11-08T12:00:00Z');
    await db()('purchases').where({ userId: refunded.user.id }).update({ status: 'Refunded' });
    const angeleno = await learnerIn('America/Los_Angeles', '2026-11-08T12:00:00Z');
    const { releaseEmails } = createServices(testDeps(db(), { clock }));
    const recapEmails = async (who: SignedIn) =>
      (await db()('outboxEmails').where({ toAddress: who.user.email, kind: 'release-opened' }).select('subject'))
        .map((e: { subject: string }) => e.subject)
        .filter((subject) => subject.includes('Live recap'));
    const recap = lesson['Live recap']!;
    const setState = (state: string) =>
      db()('contentResources')
        .where({ id: recap.id })
        .update({ fields: db().raw('fields || ?::jsonb', [JSON.stringify({ state })]) });

    // The cohort's 10 November opens at midnight UTC: the learner who had the course hears of it, once.
    clock.set(new Date('2026-11-10T00:04:00Z'));
    await releaseEmails.sendDue();
    await releaseEmails.sendDue();
    expect(await recapEmails(onTime)).toEqual(['Now open: Live recap (Cohort course)']);
    expect(await recapEmails(late)).toEqual([]); // bought once it was open
    expect(await recapEmails(refunded)).toEqual([]); // the course is no longer theirs
    // Unpublished before it opens in Los Angeles (08:00 UTC): nothing announced; published again, it is.
    await setState('draft');
    clock.set(new Date('2026-11-10T08:04:00Z'));
    await releaseEmails.sendDue();
    expect(await recapEmails(angeleno)).toEqual([]);
    await setState('published');
    await releaseEmails.sendDue();
    expect(await recapEmails(angeleno)).toEqual(['Now open: Live recap (Cohort course)']);
  });

  it('reads only what opened since the last sweep: after two days down a release is emailed once, and not read again', async () => {
    const learner = await learnerIn('UTC', '2026-11-20T12:00:00Z');
    const replicas = [1, 2, 3].map(() => createServices(testDeps(db(), { clock })).releaseEmails);
    const theirs = async () =>
      (
        await db()('outboxEmails').where({ toAddress: learner.user.email, kind: 'release-opened' }).select('subject')
      ).map((e: { subject: string }) => e.subject);

    // The last sweep before the servers go down; week two opens for this learner on 23 November, meanwhile.
    clock.set(new Date('2026-11-22T23:55:00Z'));
    await replicas[0]!.sendDue();
    expect(await theirs()).toEqual([]);
    // Two days later every replica sweeps at once: one email.
    clock.set(new Date('2026-11-24T23:55:00Z'));
    await Promise.all(replicas.map((r) => r.sendDue()));
    expect(await theirs()).toEqual(['Now open: Week two (Cohort course)']);
    // Read already: the next sweep does not read that release again, even were its row gone.
    await db()('releaseEmails').where({ userId: learner.user.id }).delete();
    clock.set(new Date('2026-11-25T00:00:00Z'));
    expect(await replicas[1]!.sendDue()).toBe(0);
    expect(await theirs()).toEqual(['Now open: Week two (Cohort course)']);
  });

  it('reads only the learners something opens for in the sweep, not every learner of the course each time', async () => {
    // Learners of long ago: week two and the cohort's date opened for them weeks before this sweep.
    for (const day of ['01', '02', '03', '04']) await learnerIn('Asia/Kolkata', `2026-09-${day}T12:00:00Z`);
    const learner = await learnerIn('Pacific/Auckland', '2026-12-17T12:00:00Z');
    const { releaseEmails } = createServices(testDeps(db(), { clock }));
    const read: number[] = [];
    const count = (response: { rows?: unknown[] }, query: { sql: string }) => {
      if (/\buser_prefs\b/.test(query.sql)) read.push(response.rows?.length ?? 0);
    };
    const everyone = Number(
      (await db()('purchases').where({ productId: product.id }).countDistinct({ n: 'userId' }))[0]!.n,
    );

    // Week two opens for the new learner at midnight of 21 December in Auckland (11:00 UTC on the 20th, their
    // start's date being the 18th there): the sweep reads that learner alone, and emails them.
    clock.set(new Date('2026-12-20T11:04:00Z'));
    db().on('query-response', count);
    try {
      expect(await releaseEmails.sendDue()).toBe(1);
    } finally {
      db().off('query-response', count);
    }
    expect(everyone).toBeGreaterThan(5);
    expect(read).toEqual([1]);
    const emails = await db()('outboxEmails').where({ toAddress: learner.user.email, kind: 'release-opened' });
    expect(emails.map((e: { subject: string }) => e.subject)).toEqual(['Now open: Week two (Cohort course)']);
  });
});
