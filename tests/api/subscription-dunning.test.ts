import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContentResource } from '../support/models';
import { createCourse, createProduct } from '../../seeds/factories';
import { testConfig, testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { manualClock, onTheHour } from '../support/clock';
import { useTestDatabase } from '../support/db';
import { lastEmailTo } from '../support/outbox';
import { createApp } from '../../api/src/app';
import { createServices, type Services } from '../../api/src/services';
import { loadConfig } from '../../api/src/config';
import { OutboxEmail } from '../../api/src/mail/models';
import { formatEmailDate } from '../../api/src/mail/templates';
import type { Product } from '../../api/src/catalog/models';

const DAY = 86_400_000;

describe('dunning: failed renewals retried, the card updated, lapses recorded', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const start = onTheHour();
  const clock = manualClock(start);
  const config = testConfig({ SUBSCRIPTION_GRACE_DAYS: '7', SUBSCRIPTION_RETRY_DAYS: '1,3,5' });
  let services: Services;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let membership: Product;
  let course: { course: ContentResource; lessons: ContentResource[] };

  beforeAll(async () => {
    const deps = testDeps(db(), { clock, config });
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    membership = await createProduct(db(), {
      name: 'Dunning access',
      productType: 'membership',
      billingInterval: 'month',
      grantsWholeCatalog: true,
      unitAmount: 2900,
    });
    course = await createCourse(db(), {
      title: 'Kept through a lapse',
      modules: [
        {
          title: 'One',
          sections: [{ title: 'A', lessons: ['First', 'Second'].map((title) => ({ title, body: '<p>x</p>' })) }],
        },
      ],
    });
  });

  const store = (who: SignedIn, method: 'get' | 'post' | 'put', path: string, body?: object) =>
    as(who, request(app)[method](`/api/store${path}`)).send(body);
  const lessonOpen = async (who: SignedIn) =>
    // The second lesson: a course's first may be open to anyone as its preview.
    (await store(who, 'get', `/courses/${course.course.fields.slug}/lessons/${course.lessons[1]!.id}`)).body
      .open as boolean;
  const row = (id: string) => db()('subscriptions').where({ id }).first();
  const emailsOf = (to: string, kind: string) => OutboxEmail.query(db()).where({ toAddress: to, kind });

  async function subscribed(who: SignedIn): Promise<string> {
    const started = await store(who, 'post', '/subscriptions', { productId: membership.id });
    const { pathname } = new URL(started.body.data.url);
    expect((await request(app).post(`${pathname}/pay`)).status).toBe(303);
    return (await store(who, 'get', '/subscriptions')).body.data[0].id;
  }
  const failRenewal = async (id: string) =>
    expect(
      (await request(app).post(`/test-provider/subscriptions/${id}/renew`).send({ outcome: 'failed' })).status,
    ).toBe(200);
  /** The card page the Billing page sends the learner to, followed: its path. */
  async function cardPage(who: SignedIn, id: string): Promise<string> {
    const answer = await store(who, 'get', `/subscriptions/${id}/payment-method`);
    expect(answer.status).toBe(200);
    const { pathname } = new URL(answer.body.data.url);
    return pathname;
  }

  it('emails each failure with the amount, the end of access and a link to the Billing page; retries on schedule; a working card pays at once', async () => {
    clock.set(start);
    const learner = await signedIn(db());
    const id = await subscribed(learner);
    await failRenewal(id);
    expect(await row(id)).toMatchObject({
      status: 'past_due',
      retryCount: 0,
      nextRetryAt: new Date(start.getTime() + DAY),
      graceUntil: new Date(start.getTime() + 7 * DAY),
    });
    const email = await lastEmailTo(db(), learner.user.email);
    expect(email).toMatchObject({ kind: 'subscription-payment-failed' });
    expect(email.textBody).toContain('$29.00');
    // A learner without a time zone of their own reads the end in UTC, the zone named.
    const graceEnd = formatEmailDate(new Date(start.getTime() + 7 * DAY));
    expect(email.textBody).toContain(`open until ${graceEnd}`);
    // The link lands on the Billing page, which the storefront serves.
    expect(email.link!.toString()).toBe('http://localhost:3000/subscriptions');

    // Not yet due: nothing retried.
    expect(await services.subscriptions.sweepDunning()).toEqual({ retried: 0, lapsed: 0, ended: 0 });
    clock.advance(DAY);
    // The card on file was declined: the retry fails, is recorded and emailed, and the next is 2 days on (day 3).
    expect(await services.subscriptions.sweepDunning()).toEqual({ retried: 1, lapsed: 0, ended: 0 });
    expect(await row(id)).toMatchObject({
      status: 'past_due',
      retryCount: 1,
      nextRetryAt: new Date(start.getTime() + 3 * DAY),
      graceUntil: new Date(start.getTime() + 7 * DAY),
    });
    expect(await db()('subscriptionPeriods').where({ subscriptionId: id, outcome: 'failed' })).toHaveLength(2);
    expect(await emailsOf(learner.user.email, 'subscription-payment-failed')).toHaveLength(2);
    expect(await lessonOpen(learner)).toBe(true);

    // The card page: declined now; a card that works pays the renewal at once and sends them back to Billing.
    const page = await cardPage(learner, id);
    expect((await request(app).get(page)).text).toContain('The card on file was declined.');
    const set = await request(app).post(`${page}/works`);
    expect(set.status).toBe(303);
    expect(set.headers.location).toBe('http://localhost:3000/subscriptions');
    expect(await row(id)).toMatchObject({ status: 'active', retryCount: 0, nextRetryAt: null, graceUntil: null });
    const charges = await db()('merchantCharges').where({ userId: learner.user.id });
    expect(charges.map((c: { amount: number }) => c.amount)).toEqual([2900, 2900]);
    expect(
      await db()('invoices').whereIn(
        'merchantChargeId',
        charges.map((c: { id: string }) => c.id),
      ),
    ).toHaveLength(2);
    // Nothing left to retry.
    clock.advance(5 * DAY);
    expect(await services.subscriptions.sweepDunning()).toEqual({ retried: 0, lapsed: 0, ended: 0 });
  });

  it('retries 1, 3 and 5 days after the first failure and then no more', async () => {
    clock.set(start);
    const learner = await signedIn(db());
    const id = await subscribed(learner);
    await failRenewal(id);
    const tried: Array<number | null> = [];
    for (const day of [1, 3, 5, 6]) {
      clock.set(new Date(start.getTime() + day * DAY));
      await services.subscriptions.sweepDunning();
      const after = await row(id);
      tried.push(after.nextRetryAt ? (after.nextRetryAt.getTime() - start.getTime()) / DAY : null);
    }
    expect(tried).toEqual([3, 5, null, null]);
    expect(await db()('subscriptionPeriods').where({ subscriptionId: id, outcome: 'failed' })).toHaveLength(4);
  });

  it('records a lapse once across replicas, keeps progress, bookmarks and certificates, and opens again when paid', async () => {
    clock.set(start);
    const learner = await signedIn(db());
    const id = await subscribed(learner);
    for (const lesson of course.lessons)
      expect((await store(learner, 'put', `/progress/lessons/${lesson.id}`, {})).status).toBe(200);
    expect((await store(learner, 'put', `/bookmarks/${course.lessons[0]!.id}`, {})).status).toBe(200);
    const kept = async () => ({
      progress: (await db()('lessonProgress').where({ userId: learner.user.id })).length,
      bookmarks: (await db()('bookmarks').where({ userId: learner.user.id })).length,
      certificates: (await db()('certificates').where({ userId: learner.user.id })).length,
    });
    const before = await kept();
    expect(before).toEqual({ progress: 2, bookmarks: 1, certificates: 1 });
    await failRenewal(id);

    clock.set(new Date(start.getTime() + 7 * DAY + 1000));
    const due = await db()('subscriptions').where({ status: 'past_due' }).where('graceUntil', '<=', clock.now());
    const replicas = [services, createServices(testDeps(db(), { clock, config }))];
    const sweeps = await Promise.all([...replicas, ...replicas].map((s) => s.subscriptions.sweepDunning()));
    // Every subscription whose grace ended (this one among them) lapses once, whichever sweep gets there.
    expect(due.map((s: { id: string }) => s.id)).toContain(id);
    expect(sweeps.reduce((sum, s) => sum + s.lapsed, 0)).toBe(due.length);
    expect(await row(id)).toMatchObject({ status: 'lapsed', graceUntil: null, nextRetryAt: null });
    const lapsed = await emailsOf(learner.user.email, 'subscription-lapsed');
    expect(lapsed).toHaveLength(1);
    expect(lapsed[0]!.textBody).toContain('progress, bookmarks and certificates are kept');
    expect(lapsed[0]!.textBody).toContain('http://localhost:3000/subscriptions');
    expect(await lessonOpen(learner)).toBe(false);
    expect((await store(learner, 'get', '/subscriptions')).body.data[0]).toMatchObject({ status: 'lapsed' });
    expect(await kept()).toEqual(before);

    // A retry failing after the lapse does not open the courses again; a card that works does, at once.
    await services.testProvider.subscriptions.retryFailedInvoice((await row(id)).providerIdentifier);
    expect(await row(id)).toMatchObject({ status: 'lapsed' });
    expect(await lessonOpen(learner)).toBe(false);
    expect((await request(app).post(`${await cardPage(learner, id)}/works`)).status).toBe(303);
    expect(await row(id)).toMatchObject({ status: 'active' });
    expect(await lessonOpen(learner)).toBe(true);
    expect(await kept()).toEqual(before);
  });

  it("names a payment plan's instalment, not the course's price, when one fails", async () => {
    clock.set(start);
    const planned = await createProduct(db(), { name: 'Course paid in three', unitAmount: 60000 });
    await db()('paymentPlans').insert({
      productId: planned.id,
      instalments: 3,
      instalmentAmount: 21000,
      currency: 'usd',
    });
    const learner = await signedIn(db());
    const started = await store(learner, 'post', '/payment-plans', { productId: planned.id });
    expect(started.status).toBe(201);
    expect((await request(app).post(`${new URL(started.body.data.url).pathname}/pay`)).status).toBe(303);
    const id = (await store(learner, 'get', '/subscriptions')).body.data[0].id;
    await failRenewal(id);
    const email = await lastEmailTo(db(), learner.user.email);
    expect(email.subject).toBe('Your payment for Course paid in three failed');
    expect(email.textBody).toContain('We could not take $210.00 for your Course paid in three payment plan.');
  });

  it("refuses another learner's card page, and a retry schedule that does not rise", async () => {
    clock.set(start);
    const owner = await signedIn(db());
    const id = await subscribed(owner);
    const other = await signedIn(db());
    expect((await store(other, 'get', `/subscriptions/${id}/payment-method`)).status).toBe(404);
    expect(() => loadConfig({ NODE_ENV: 'test', SUBSCRIPTION_RETRY_DAYS: '3,1' })).toThrow(/SUBSCRIPTION_RETRY_DAYS/);
    expect(loadConfig({ NODE_ENV: 'test', SUBSCRIPTION_RETRY_DAYS: '' }).SUBSCRIPTION_RETRY_DAYS).toEqual([]);
  });

  it('refuses the card page to support viewing the learner’s account, which only reads', async () => {
    clock.set(start);
    const support = await signedIn(db(), ['support']);
    const learner = await signedIn(db());
    const id = await subscribed(learner);
    await failRenewal(id);
    const answer = await as(support, request(app).post(`/api/admin/users/${learner.user.id}/view-as`)).send({
      reason: 'Looking at their billing',
    });
    expect(answer.status).toBe(201);
    const cookie = ([] as string[])
      .concat(answer.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('lp_view_as='))!
      .split(';')[0];
    const viewing = { ...support, cookie: `${support.cookie}; ${cookie}` };
    expect((await store(viewing, 'get', '/subscriptions')).body.data[0]).toMatchObject({ id, status: 'past_due' });
    const refused = await store(viewing, 'get', `/subscriptions/${id}/payment-method`);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('view-as-read-only');
    expect(await row(id)).toMatchObject({ status: 'past_due' });
  });

  it('pays an owed renewal once when the card page is submitted twice at once beside the retry sweep', async () => {
    clock.set(start);
    const learner = await signedIn(db());
    const id = await subscribed(learner);
    await failRenewal(id);
    const owedEnd = (await row(id)).currentPeriodEnd as Date;
    const page = await cardPage(learner, id);
    // The card is set to one that works first, so every retry below would be paid if it were let through.
    await db()('testProviderSubscriptions').where({ reference: id }).update({ cardDeclined: false });
    clock.advance(DAY);
    const [a, b] = await Promise.all([
      request(app).post(`${page}/works`),
      request(app).post(`${page}/works`),
      services.subscriptions.sweepDunning(),
    ]);
    expect([a.status, b.status]).toEqual([303, 303]);
    const charges = await db()('merchantCharges').where({ userId: learner.user.id });
    expect(charges.map((c: { amount: number }) => c.amount)).toEqual([2900, 2900]);
    const provider = await db()('testProviderSubscriptions').where({ reference: id }).first();
    expect(provider).toMatchObject({ status: 'active', currentPeriodStart: owedEnd });
    expect(await row(id)).toMatchObject({ status: 'active', currentPeriodStart: owedEnd });
  });

  it('lets a learner whose renewal failed cancel: the retries stop and the provider ends it', async () => {
    clock.set(start);
    const learner = await signedIn(db());
    const id = await subscribed(learner);
    await failRenewal(id);
    const cancelled = await store(learner, 'post', `/subscriptions/${id}/cancel`);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'canceled' });
    expect(await row(id)).toMatchObject({ status: 'canceled', nextRetryAt: null });
    expect(await db()('testProviderSubscriptions').where({ reference: id }).first('status')).toEqual({
      status: 'canceled',
    });
    clock.advance(DAY);
    await services.subscriptions.sweepDunning();
    expect(await db()('subscriptionPeriods').where({ subscriptionId: id, outcome: 'failed' })).toHaveLength(1);
  });
});
