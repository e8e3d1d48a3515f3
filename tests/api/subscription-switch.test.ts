import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProduct, createRevenueSplit } from '../../seeds/factories';
import { testConfig, testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { manualClock, onTheHour } from '../support/clock';
import { useTestDatabase } from '../support/db';
import { createApp } from '../../api/src/app';
import { createServices } from '../../api/src/services';
import { periodEnd } from '../../api/src/payments/test-provider-subscriptions';
import { runSeeds } from '../../seeds/run';
import type { Product } from '../../api/src/catalog/models';

const DAY = 86_400_000;

describe('a membership monthly or yearly, switched between them prorated', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const start = onTheHour();
  const clock = manualClock(start);
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let both: Awaited<ReturnType<typeof createProduct>>;
  let monthlyOnly: Product;

  beforeAll(async () => {
    const deps = testDeps(db(), { clock, config: testConfig() });
    app = createApp(deps, { services: createServices(deps) }).callback();
    both = await createProduct(db(), {
      name: 'Monthly or yearly',
      productType: 'membership',
      billingInterval: 'month',
      grantsWholeCatalog: true,
      unitAmount: 3000,
      yearlyAmount: 30000,
    });
    await createRevenueSplit(db(), { productId: both.id, type: 'platform', percent: 0.3 });
    monthlyOnly = await createProduct(db(), {
      name: 'Monthly only',
      productType: 'membership',
      billingInterval: 'month',
      unitAmount: 1000,
    });
  });

  const store = (who: SignedIn, method: 'get' | 'post', path: string, body?: object) =>
    as(who, request(app)[method](`/api/store${path}`)).send(body);
  async function subscribed(who: SignedIn, product: Product, interval?: 'month' | 'year'): Promise<string> {
    const started = await store(who, 'post', '/subscriptions', { productId: product.id, interval });
    expect(started.status).toBe(201);
    expect((await request(app).post(`${new URL(started.body.data.url).pathname}/pay`)).status).toBe(303);
    return (await store(who, 'get', '/subscriptions')).body.data[0].id;
  }
  const charges = (userId: string) =>
    db()('merchantCharges').where({ userId }).orderBy('createdAt').select('id', 'amount', 'net');
  const row = (id: string) => db()('subscriptions').where({ id }).first();
  const priceOf = (product: typeof both, interval: 'month' | 'year') =>
    product.prices.find((p) => p.billingInterval === interval)!;

  it('offers both prices on the sales page and subscribes at the one chosen, the default otherwise', async () => {
    clock.set(start);
    const page = await request(app).get(`/api/store/products/${both.slug}`);
    expect(page.body.membership.prices).toEqual([
      { interval: 'month', unitAmount: 3000, currency: 'usd' },
      { interval: 'year', unitAmount: 30000, currency: 'usd' },
    ]);
    expect(page.body.price).toMatchObject({ unitAmount: 3000 });
    const yearly = await signedIn(db());
    const id = await subscribed(yearly, both, 'year');
    expect(await row(id)).toMatchObject({
      priceId: priceOf(both, 'year').id,
      currentPeriodEnd: periodEnd(start, 'year'),
    });
    expect((await charges(yearly.user.id)).map((c) => c.amount)).toEqual([30000]);
    const monthly = await signedIn(db());
    expect(await row(await subscribed(monthly, both))).toMatchObject({ priceId: priceOf(both, 'month').id });
    const refused = await store(monthly, 'post', '/subscriptions', { productId: monthlyOnly.id, interval: 'year' });
    expect(refused.body.code).toBe('interval-not-offered');
  });

  it('switches monthly to yearly now: the unused month credited, the rest charged as a sale with its split lines and invoice', async () => {
    clock.set(start);
    const learner = await signedIn(db());
    const id = await subscribed(learner, both);
    clock.advance(10 * DAY);
    const monthEnd = periodEnd(start, 'month');
    const credit = Math.floor(
      (3000 * (monthEnd.getTime() - clock.now().getTime())) / (monthEnd.getTime() - start.getTime()),
    );
    const quoted = await store(learner, 'get', `/subscriptions/${id}/billing`);
    expect(quoted.body.data).toMatchObject({
      interval: 'month',
      nextCharge: { amount: 3000, currency: 'usd', on: monthEnd.toISOString() },
      switch: { interval: 'year', amount: 30000, credit, dueNow: 30000 - credit, startsNow: true },
    });

    const switched = await store(learner, 'post', `/subscriptions/${id}/switch`, { interval: 'year' });
    expect(switched.status).toBe(200);
    expect(switched.body.data).toMatchObject({ interval: 'year', nextCharge: { amount: 30000 } });
    expect(await row(id)).toMatchObject({
      status: 'active',
      priceId: priceOf(both, 'year').id,
      currentPeriodStart: clock.now(),
      currentPeriodEnd: periodEnd(clock.now(), 'year'),
    });
    const [, proration] = await charges(learner.user.id);
    expect(proration).toMatchObject({ amount: 30000 - credit });
    const lines = await db()('splitLines').where({ merchantChargeId: proration!.id }).sum({ sum: 'amount' });
    expect(Number(lines[0]!.sum)).toBe(proration!.net);
    expect(await db()('invoices').where({ merchantChargeId: proration!.id, kind: 'invoice' })).toHaveLength(1);

    // Back to monthly at once: the unused year covers a month, so nothing is charged and monthly starts at its end.
    const back = await store(learner, 'post', `/subscriptions/${id}/switch`, { interval: 'month' });
    expect(back.body.data).toMatchObject({
      interval: 'year',
      scheduledSwitch: { interval: 'month', amount: 3000 },
      nextCharge: { amount: 3000 },
    });
    expect(await charges(learner.user.id)).toHaveLength(2);
    expect(await row(id)).toMatchObject({ currentPeriodEnd: periodEnd(clock.now(), 'year') });
    const renewed = await request(app).post(`/test-provider/subscriptions/${id}/renew`).send({ outcome: 'paid' });
    expect(renewed.body.data.periodEnd).toBe(periodEnd(periodEnd(clock.now(), 'year'), 'month').toISOString());
    expect((await charges(learner.user.id)).map((c) => c.amount)).toEqual([3000, 30000 - credit, 3000]);
    clock.set(start);
  });

  it('refuses a switch while a payment is owed or once cancelled, and another learner’s', async () => {
    clock.set(start);
    const learner = await signedIn(db());
    const id = await subscribed(learner, both);
    await request(app).post(`/test-provider/subscriptions/${id}/renew`).send({ outcome: 'failed' });
    const owed = await store(learner, 'post', `/subscriptions/${id}/switch`, { interval: 'year' });
    expect([owed.status, owed.body.code]).toEqual([409, 'subscription-past-due']);
    expect((await store(learner, 'get', `/subscriptions/${id}/billing`)).body.data.switch).toBeNull();

    const other = await signedIn(db());
    const otherId = await subscribed(other, both);
    expect((await store(learner, 'post', `/subscriptions/${otherId}/switch`, { interval: 'year' })).status).toBe(404);
    await store(other, 'post', `/subscriptions/${otherId}/cancel`);
    const ending = await store(other, 'post', `/subscriptions/${otherId}/switch`, { interval: 'year' });
    expect([ending.status, ending.body.code]).toEqual([409, 'subscription-ending']);
    const bad = await store(other, 'post', `/subscriptions/${otherId}/switch`, { interval: 'week' });
    expect(bad.status).toBe(400);
    expect(await charges(other.user.id)).toHaveLength(1);
  });

  it('lets the console add a yearly price beside the monthly one, and refuses an interval on a course’s price', async () => {
    const admin = await signedIn(db(), ['admin']);
    const membership = await createProduct(db(), {
      name: 'Console priced',
      productType: 'membership',
      billingInterval: 'month',
      unitAmount: 1500,
    });
    const yearly = await as(admin, request(app).post('/api/admin/prices')).send({
      productId: membership.id,
      unitAmount: 15000,
      currency: 'usd',
      billingInterval: 'year',
    });
    expect(yearly.status).toBe(201);
    const monthly = await as(admin, request(app).post('/api/admin/prices')).send({
      productId: membership.id,
      unitAmount: 1600,
      currency: 'usd',
    });
    expect(monthly.body).toMatchObject({ billingInterval: 'month', status: 'active' });
    const active = await db()('prices').where({ productId: membership.id, status: 'active' }).orderBy('unitAmount');
    expect(
      active.map((p: { unitAmount: number; billingInterval: string }) => [p.unitAmount, p.billingInterval]),
    ).toEqual([
      [1600, 'month'],
      [15000, 'year'],
    ]);
    const course = await createProduct(db(), { name: 'A course priced' });
    const wrong = await as(admin, request(app).post('/api/admin/prices')).send({
      productId: course.id,
      unitAmount: 100,
      currency: 'usd',
      billingInterval: 'year',
    });
    expect([wrong.status, wrong.body.errors]).toEqual([
      400,
      { billingInterval: 'only a membership has a billing interval' },
    ]);
  });

  it("gives the demo's All access a yearly price of $290 beside $29 a month", async () => {
    await runSeeds(db(), { demo: true });
    const page = await request(app).get('/api/store/products/all-access');
    expect(page.body.membership.prices).toEqual([
      { interval: 'month', unitAmount: 2900, currency: 'usd' },
      { interval: 'year', unitAmount: 29000, currency: 'usd' },
    ]);
  });

  it('undoes a switch back to monthly waiting for the year’s end: yearly again keeps the year paid, nothing charged', async () => {
    clock.set(start);
    const learner = await signedIn(db());
    const id = await subscribed(learner, both);
    clock.advance(10 * DAY);
    expect((await store(learner, 'post', `/subscriptions/${id}/switch`, { interval: 'year' })).status).toBe(200);
    const yearEnd = periodEnd(clock.now(), 'year');
    clock.advance(5 * DAY);
    const back = await store(learner, 'post', `/subscriptions/${id}/switch`, { interval: 'month' });
    expect(back.status).toBe(200);
    const before = (await charges(learner.user.id)).map((c) => c.amount);
    expect(before).toHaveLength(2);
    clock.advance(DAY);
    const waiting = await store(learner, 'get', `/subscriptions/${id}/billing`);
    expect(waiting.body.data).toMatchObject({
      interval: 'year',
      switch: null,
      scheduledSwitch: { interval: 'month', amount: 3000, currency: 'usd', on: yearEnd.toISOString() },
      nextCharge: { amount: 3000, on: yearEnd.toISOString() },
    });
    const again = await store(learner, 'post', `/subscriptions/${id}/switch`, { interval: 'year' });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({
      interval: 'year',
      scheduledSwitch: null,
      nextCharge: { amount: 30000, on: yearEnd.toISOString() },
      switch: { interval: 'month', startsNow: false },
    });
    expect((await charges(learner.user.id)).map((c) => c.amount)).toEqual(before);
    // The year's end renews the year.
    const renewed = await request(app).post(`/test-provider/subscriptions/${id}/renew`).send({ outcome: 'paid' });
    expect(renewed.body.data.periodEnd).toBe(periodEnd(yearEnd, 'year').toISOString());
    expect((await charges(learner.user.id)).map((c) => c.amount)).toEqual([...before, 30000]);
    clock.set(start);
  });

  it('undoes a waiting switch confirmed as charging nothing, and refuses that once the switch is made: never charged unquoted', async () => {
    clock.set(start);
    const learner = await signedIn(db());
    const id = await subscribed(learner, both, 'year');
    const yearEnd = periodEnd(start, 'year');
    const paid = (await charges(learner.user.id)).map((c) => c.amount);
    expect(paid).toHaveLength(1);
    clock.advance(10 * DAY);
    const toMonthly = () => store(learner, 'post', `/subscriptions/${id}/switch`, { interval: 'month' });
    expect((await toMonthly()).body.data.scheduledSwitch).toMatchObject({ interval: 'month' });
    // Keep yearly, as the Billing page asks it: nothing to pay now.
    const kept = await store(learner, 'post', `/subscriptions/${id}/switch`, { interval: 'year', dueNow: 0 });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect(kept.body.data).toMatchObject({ interval: 'year', scheduledSwitch: null });
    expect((await toMonthly()).body.data.scheduledSwitch).toMatchObject({ interval: 'month' });
    // The year has ended, its renewal not yet recorded: the month is the plan now, and going back to yearly would
    // charge a new year. The page's "Keep yearly" (nothing to pay) is refused, nothing charged.
    await db()('sessions')
      .where({ userId: learner.user.id })
      .update({ expires: new Date(Date.UTC(2100, 0)) });
    clock.set(new Date(yearEnd.getTime() + 60_000));
    const late = await store(learner, 'post', `/subscriptions/${id}/switch`, { interval: 'year', dueNow: 0 });
    expect(late.status, JSON.stringify(late.body)).toBe(409);
    expect(late.body.code).toBe('quote-changed');
    expect((await charges(learner.user.id)).map((c) => c.amount)).toEqual(paid);
    expect(await row(id)).toMatchObject({ priceId: priceOf(both, 'month').id });
    clock.set(start);
  });

  it('shows the next charge of a subscription on a retired price, and its switch to the price offered', async () => {
    clock.set(start);
    const retiring = await createProduct(db(), {
      name: 'Retiring monthly',
      productType: 'membership',
      billingInterval: 'month',
      unitAmount: 2000,
      yearlyAmount: 20000,
    });
    const learner = await signedIn(db());
    const id = await subscribed(learner, retiring);
    await db()('prices')
      .where({ id: priceOf(retiring, 'month').id })
      .update({ status: 'archived' });
    const billing = await store(learner, 'get', `/subscriptions/${id}/billing`);
    expect(billing.body.data).toMatchObject({
      interval: 'month',
      nextCharge: { amount: 2000 },
      switch: { interval: 'year', amount: 20000 },
    });
  });
});
