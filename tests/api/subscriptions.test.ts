import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContentResource } from '../support/models';
import { createCourse, createProduct, createRevenueSplit } from '../../seeds/factories';
import { testApp, testConfig } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { manualClock, onTheHour } from '../support/clock';
import { useTestDatabase } from '../support/db';
import { runSeeds } from '../../seeds/run';
import { testProviderFee } from '../../api/src/payments/test-provider';
import { periodEnd } from '../../api/src/payments/test-provider-subscriptions';
import type { Product } from '../../api/src/catalog/models';

const DAY = 86_400_000;

describe('memberships with the built-in test provider', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  // Sessions are made at the real time and last 30 days: the test's clock stays within them.
  const start = onTheHour();
  const clock = manualClock(start);
  let app: ReturnType<typeof testApp>;
  let allAccess: Product;
  let picked: Product;
  let course: { course: ContentResource; lessons: ContentResource[] };
  let other: { course: ContentResource; lessons: ContentResource[] };

  const outline = (title: string) => ({
    title,
    modules: [
      {
        title: 'One',
        sections: [{ title: 'A', lessons: [1, 2, 3].map((n) => ({ title: `L${n}`, body: '<p>x</p>' })) }],
      },
    ],
  });

  beforeAll(async () => {
    app = testApp(db(), { clock, config: testConfig({ SUBSCRIPTION_GRACE_DAYS: '7' }) });
    allAccess = await createProduct(db(), {
      name: 'All access test',
      productType: 'membership',
      billingInterval: 'month',
      grantsWholeCatalog: true,
      unitAmount: 2900,
    });
    await createRevenueSplit(db(), { productId: allAccess.id, type: 'platform', percent: 0.3 });
    picked = await createProduct(db(), {
      name: 'Two courses yearly',
      productType: 'membership',
      billingInterval: 'year',
      trialDays: 14,
      unitAmount: 19900,
    });
    const sold = await createProduct(db(), { name: 'Sold alone' });
    course = await createCourse(db(), outline('Membership course'), { products: [sold, picked] });
    other = await createCourse(db(), outline('Other course'), { products: [sold] });
  });

  const store = (who: SignedIn, method: 'get' | 'post' | 'put', path: string, body?: object) =>
    as(who, request(app)[method](`/api/store${path}`)).send(body);
  const lessonOpen = async (who: SignedIn, c: { course: ContentResource; lessons: ContentResource[] }) => {
    // The lesson page and the course page each ask the one access check, in their own statement.
    const lesson = await store(who, 'get', `/courses/${c.course.fields.slug}/lessons/${c.lessons[1]!.id}`);
    const page = await store(who, 'get', `/courses/${c.course.fields.slug}`);
    expect([lesson.status, page.status]).toEqual([200, 200]);
    expect(page.body.access.full).toBe(lesson.body.open);
    return lesson.body.open as boolean;
  };
  const renew = (id: string, outcome: 'paid' | 'failed', key?: string) => {
    const req = request(app).post(`/test-provider/subscriptions/${id}/renew`);
    return (key ? req.set('Idempotency-Key', key) : req).send({ outcome });
  };
  /** Subscribes at the provider's page in subscription mode; the learner's subscription, as listed. */
  async function subscribe(who: SignedIn, product: Product) {
    const started = await store(who, 'post', '/subscriptions', { productId: product.id });
    expect(started.status).toBe(201);
    const { pathname } = new URL(started.body.data.url);
    const page = await request(app).get(pathname);
    expect(page.text).toContain('<button class="pay" type="submit">Subscribe</button>');
    const paid = await request(app).post(`${pathname}/pay`);
    expect(paid.status).toBe(303);
    expect(paid.headers.location).toBe('http://localhost:3000/learning');
    const list = await store(who, 'get', '/subscriptions');
    return list.body.data.find((s: { productId: string }) => s.productId === product.id);
  }
  const mine = async (who: SignedIn) => (await store(who, 'get', '/subscriptions')).body.data[0];
  const charges = (userId: string) =>
    db()('merchantCharges').where({ userId }).orderBy('createdAt').select('id', 'amount', 'fee', 'net');

  it('opens every course of a whole-catalog membership, a course added later too, and bills each paid period once', async () => {
    const learner = await signedIn(db());
    expect(await lessonOpen(learner, course)).toBe(false);
    const sub = await subscribe(learner, allAccess);
    expect(sub).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: false,
      currentPeriodEnd: periodEnd(start, 'month').toISOString(),
    });
    expect(await lessonOpen(learner, course)).toBe(true);
    expect(await lessonOpen(learner, other)).toBe(true);
    const later = await createCourse(db(), outline('Added later'));
    expect(await lessonOpen(learner, later)).toBe(true);

    // The first period: a charge, its split lines (to its net) and an invoice.
    const [first] = await charges(learner.user.id);
    expect(first).toMatchObject({ amount: 2900, fee: testProviderFee(2900), net: 2900 - testProviderFee(2900) });
    const lines = await db()('splitLines').where({ merchantChargeId: first!.id }).sum({ sum: 'amount' });
    expect(Number(lines[0]!.sum)).toBe(first!.net);
    expect(await db()('invoices').where({ merchantChargeId: first!.id, kind: 'invoice' })).toHaveLength(1);

    // A renewal: a new period, a new charge and invoice; asked again with its key, nothing more.
    const renewed = await renew(sub.id, 'paid', 'renew-1');
    expect(renewed.status).toBe(200);
    const again = await renew(sub.id, 'paid', 'renew-1');
    expect(again.body.data.invoice).toBe(renewed.body.data.invoice);
    expect((await mine(learner)).currentPeriodEnd).toBe(periodEnd(periodEnd(start, 'month'), 'month').toISOString());
    const after = await charges(learner.user.id);
    expect(after).toHaveLength(2);
    expect(await db()('invoices').where({ merchantChargeId: after[1]!.id })).toHaveLength(1);
    expect(await db()('subscriptionPeriods').where({ subscriptionId: sub.id, outcome: 'paid' })).toHaveLength(2);
    // Another paid membership cannot be started beside a live one.
    expect((await store(learner, 'post', '/subscriptions', { productId: allAccess.id })).body.code).toBe(
      'already-subscribed',
    );
  });

  it('records a delivered event once however often it is delivered', async () => {
    const learner = await signedIn(db());
    const sub = await subscribe(learner, allAccess);
    const services = (await import('../../api/src/services')).createServices({
      db: db(),
      clock,
      config: testConfig(),
      logger: (await import('../../api/src/logger')).createLogger('silent'),
    });
    const event = await services.testProvider.subscriptions.renew(sub.id, 'paid', null);
    const accountId = await services.testProvider.accountId();
    const results = await Promise.all([1, 2, 3].map(() => services.subscriptions.recordEvent(accountId, event)));
    expect(results.filter((r) => r.recorded)).toHaveLength(1);
    expect(await charges(learner.user.id)).toHaveLength(2);
  });

  it('never moves a subscription back for an event that arrives late', async () => {
    const learner = await signedIn(db());
    const sub = await subscribe(learner, allAccess);
    const { createServices } = await import('../../api/src/services');
    const { createLogger } = await import('../../api/src/logger');
    const services = createServices({ db: db(), clock, config: testConfig(), logger: createLogger('silent') });
    const accountId = await services.testProvider.accountId();
    const second = await services.testProvider.subscriptions.renew(sub.id, 'paid', null);
    const third = await services.testProvider.subscriptions.renew(sub.id, 'paid', null);
    await services.subscriptions.recordEvent(accountId, third);
    await services.subscriptions.recordEvent(accountId, second);
    expect(await mine(learner)).toMatchObject({
      status: 'active',
      currentPeriodEnd: third.invoice.periodEnd.toISOString(),
    });
    expect(await charges(learner.user.id)).toHaveLength(3);
    // A failure of a period already paid (delivered late) leaves it active.
    const late = {
      ...third,
      invoice: { ...third.invoice, identifier: 'in_test_late', outcome: 'failed' as const, charge: null },
    };
    late.invoice.periodStart = second.invoice.periodStart;
    await services.subscriptions.recordEvent(accountId, late);
    expect(await mine(learner)).toMatchObject({ status: 'active' });
  });

  it('keeps access through the grace of a failed renewal, lapses after it keeping progress, and opens again once paid', async () => {
    const learner = await signedIn(db());
    const sub = await subscribe(learner, allAccess);
    await store(learner, 'put', `/progress/lessons/${course.lessons[1]!.id}`, {});
    expect((await renew(sub.id, 'failed')).status).toBe(200);
    expect(await mine(learner)).toMatchObject({ status: 'past_due' });
    expect(await lessonOpen(learner, course)).toBe(true);
    clock.advance(6 * DAY);
    expect(await lessonOpen(learner, course)).toBe(true);
    // A second failure does not stretch the grace.
    await renew(sub.id, 'failed');
    clock.advance(1 * DAY + 1000);
    expect(await mine(learner)).toMatchObject({ status: 'lapsed' });
    expect(await lessonOpen(learner, course)).toBe(false);
    expect(await db()('lessonProgress').where({ userId: learner.user.id })).toHaveLength(1);
    expect(await charges(learner.user.id)).toHaveLength(1);

    expect((await renew(sub.id, 'paid')).status).toBe(200);
    expect(await mine(learner)).toMatchObject({ status: 'active' });
    expect(await lessonOpen(learner, course)).toBe(true);
    expect(await charges(learner.user.id)).toHaveLength(2);
    clock.set(start);
  });

  it('opens only its own courses, from the trial on; cancelled it lasts to the period end, and can be resumed before', async () => {
    const learner = await signedIn(db());
    const sub = await subscribe(learner, picked);
    expect(sub).toMatchObject({
      status: 'trialing',
      currentPeriodEnd: new Date(start.getTime() + 14 * DAY).toISOString(),
    });
    expect(await charges(learner.user.id)).toHaveLength(0);
    expect(await lessonOpen(learner, course)).toBe(true);
    expect(await lessonOpen(learner, other)).toBe(false);
    const learning = async () =>
      ((await store(learner, 'get', '/learning')).body.data as { course: { id: string } }[]).map((c) => c.course.id);
    expect(await learning()).toEqual([course.course.id]);

    const cancelled = await store(learner, 'post', `/subscriptions/${sub.id}/cancel`);
    expect(cancelled.body.data).toMatchObject({ status: 'trialing', cancelAtPeriodEnd: true });
    expect((await renew(sub.id, 'paid')).body.code).toBe('subscription-not-renewable');
    const resumed = await store(learner, 'post', `/subscriptions/${sub.id}/resume`);
    expect(resumed.body.data).toMatchObject({ cancelAtPeriodEnd: false });
    await store(learner, 'post', `/subscriptions/${sub.id}/cancel`);

    clock.advance(14 * DAY - 1000);
    expect(await lessonOpen(learner, course)).toBe(true);
    clock.advance(2000);
    expect(await lessonOpen(learner, course)).toBe(false);
    expect(await mine(learner)).toMatchObject({ status: 'canceled' });
    expect(await learning()).toEqual([]);
    expect((await store(learner, 'post', `/subscriptions/${sub.id}/resume`)).body.code).toBe(
      'subscription-not-renewable',
    );
    clock.set(start);
  });

  it("refuses what is not a membership, and another learner's subscription", async () => {
    const learner = await signedIn(db());
    const plain = await createProduct(db(), { name: 'Not a membership' });
    expect((await store(learner, 'post', '/subscriptions', { productId: plain.id })).body.code).toBe(
      'not-a-membership',
    );
    const owner = await signedIn(db());
    const sub = await subscribe(owner, picked);
    expect((await store(learner, 'post', `/subscriptions/${sub.id}/cancel`)).status).toBe(404);
  });

  it("subscribes to the demo's All access membership, monthly over every course", async () => {
    await runSeeds(db(), { demo: true });
    const product = (await db()('products').where({ slug: 'all-access' }).first()) as Product;
    expect(product).toMatchObject({ productType: 'membership', billingInterval: 'month', grantsWholeCatalog: true });
    const learner = await signedIn(db());
    expect(await subscribe(learner, product)).toMatchObject({ status: 'active' });
    const demoCourse = (await db()('contentResources')
      .where({ type: 'course' })
      .whereRaw(`fields->>'slug' LIKE 'typescript%'`)
      .first()) as ContentResource;
    const lessons = await store(learner, 'get', `/courses/${demoCourse.fields.slug}`);
    expect(lessons.body.access).toEqual({ full: true });
  });
});
