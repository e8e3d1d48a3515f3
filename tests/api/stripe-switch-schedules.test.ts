import type Stripe from 'stripe';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { stripeClient } from '../../api/src/payments/stripe-provider';
import { nthPeriodEnd } from '../../api/src/payments/stripe-subscriptions';
import { createProduct, createRevenueSplit } from '../../seeds/factories';
import { testApp, testConfig } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { deliverSigned, standInEnv } from '../support/stripe-stand-in';
import { useStripeBilling } from '../support/stripe-billing';

const fromSeconds = (seconds: number) => new Date(seconds * 1000);

/**
 * A switch with nothing to pay now (yearly to monthly, or during a trial) made at Stripe through a subscription
 * schedule, through the real SDK against the local stand-in (docs/domain.md §22): nothing billed now, the new price
 * from the period's end, undone before it, and its events recorded once in any order.
 */
describe('a switch at the period’s end through Stripe’s subscription schedules', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const { stripe, app, config, deliver, stripeSub, itemOf } = useStripeBilling(db);
  let replica: ReturnType<typeof testApp>;
  let testProviderApp: ReturnType<typeof testApp>;
  let both: Awaited<ReturnType<typeof createProduct>>;
  let trial: Awaited<ReturnType<typeof createProduct>>;

  beforeAll(async () => {
    replica = testApp(db(), { config: config() });
    testProviderApp = testApp(db(), { config: testConfig() });
    both = await createProduct(db(), {
      name: 'Monthly or yearly on Stripe',
      productType: 'membership',
      billingInterval: 'month',
      grantsWholeCatalog: true,
      unitAmount: 2900,
      yearlyAmount: 29_000,
    });
    trial = await createProduct(db(), {
      name: 'Tried first on Stripe',
      productType: 'membership',
      billingInterval: 'month',
      grantsWholeCatalog: true,
      trialDays: 14,
      unitAmount: 2900,
      yearlyAmount: 29_000,
    });
    for (const product of [both, trial])
      await createRevenueSplit(db(), { productId: product.id, type: 'platform', percent: 0.3 });
  });

  const store = (who: SignedIn, method: 'get' | 'post', path: string, body?: object, to = app()) =>
    as(who, request(to)[method](`/api/store${path}`)).send(body);
  const scheduleOf = (id: string) =>
    stripe().objects.get(stripeSub(id).schedule as string) as unknown as Stripe.SubscriptionSchedule;
  const charges = async (userId: string) =>
    (await db()('merchantCharges').where({ userId }).orderBy('createdAt').select('amount')).map(
      (c: { amount: number }) => c.amount,
    );
  const row = (userId: string) => db()('subscriptions').where({ userId }).first();
  const priceOf = (product: typeof both, interval: 'month' | 'year') =>
    product.prices.find((p) => p.billingInterval === interval)!;

  /** Subscribes on Stripe's Checkout page and delivers what Stripe sends: our subscription's id and Stripe's. */
  async function subscribed(who: SignedIn, product: typeof both, interval: 'month' | 'year') {
    const started = await store(who, 'post', '/subscriptions', { productId: product.id, interval });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const sessionId = new URL(started.body.data.url).pathname.split('/').at(-1)!;
    const { subscription, events } = stripe().billing.subscribe(sessionId);
    await deliver(events);
    const id = (await store(who, 'get', '/subscriptions')).body.data[0].id as string;
    return { id, subscription };
  }

  it('switches yearly to monthly at the year’s end: nothing charged now, the month charged when it starts', async () => {
    const learner = await signedIn(db());
    const { id, subscription } = await subscribed(learner, both, 'year');
    const yearEnd = fromSeconds(itemOf(subscription).current_period_end);
    const offered = await store(learner, 'get', `/subscriptions/${id}/billing`);
    expect(offered.body.data).toMatchObject({
      interval: 'year',
      switch: { interval: 'month', dueNow: 0, startsNow: false },
      scheduledSwitch: null,
    });
    const updatesBefore = stripe().calls.get('POST /v1/subscriptions/:id') ?? 0;

    const switched = await store(learner, 'post', `/subscriptions/${id}/switch`, { interval: 'month' });
    expect(switched.status, JSON.stringify(switched.body)).toBe(200);
    // Still the year paid for, the month waiting for its end, and the next charge the month's.
    expect(switched.body.data).toMatchObject({
      interval: 'year',
      switch: null,
      scheduledSwitch: { interval: 'month', amount: 2900, currency: 'usd', on: yearEnd.toISOString() },
      nextCharge: { amount: 2900, on: yearEnd.toISOString() },
    });
    // At Stripe: a schedule made from the subscription, its second phase the month from the year's end; the
    // subscription itself untouched and nothing invoiced.
    const schedule = scheduleOf(subscription);
    expect(schedule).toMatchObject({ status: 'active', end_behavior: 'release', subscription });
    expect(schedule.phases).toHaveLength(2);
    expect(schedule.phases[0]).toMatchObject({ end_date: itemOf(subscription).current_period_end });
    expect(schedule.phases[1]).toMatchObject({
      start_date: itemOf(subscription).current_period_end,
      metadata: { priceId: priceOf(both, 'month').id },
    });
    expect(stripe().objects.get(schedule.phases[1]!.items[0]!.price as string)).toMatchObject({
      unit_amount: 2900,
      recurring: { interval: 'month' },
      product: itemOf(subscription).price.product,
    });
    expect(stripe().calls.get('POST /v1/subscriptions/:id') ?? 0).toBe(updatesBefore);
    expect(itemOf(subscription).price).toMatchObject({ unit_amount: 29_000, recurring: { interval: 'year' } });
    const made = stripe().billing.takeEvents();
    expect(made.map((e) => e.type)).toEqual(['subscription_schedule.created', 'subscription_schedule.updated']);
    await deliver(made);
    expect(await charges(learner.user.id)).toEqual([29_000]);
    expect(await row(learner.user.id)).toMatchObject({
      priceId: priceOf(both, 'month').id,
      switchedFromPriceId: priceOf(both, 'year').id,
      switchAt: yearEnd,
    });
    // Asked again, the same: nothing more at Stripe.
    await store(learner, 'post', `/subscriptions/${id}/switch`, { interval: 'month' });
    expect(stripe().calls.get('POST /v1/subscription_schedules')).toBe(1);

    // The year ends: the second phase starts, the month is billed at once and recorded as a paid period.
    const renewal = stripe().billing.renew(subscription, 'paid');
    expect(renewal.map((e) => e.type)).toEqual([
      'invoice.created',
      'customer.subscription.updated',
      'subscription_schedule.updated',
      'invoice.finalized',
      'invoice.paid',
      'invoice.payment_succeeded',
    ]);
    await deliver(renewal);
    const monthEnd = nthPeriodEnd(yearEnd, 'month', 1);
    expect(itemOf(subscription)).toMatchObject({
      price: { unit_amount: 2900, recurring: { interval: 'month' } },
      current_period_start: yearEnd.getTime() / 1000,
      current_period_end: monthEnd.getTime() / 1000,
    });
    expect(await charges(learner.user.id)).toEqual([29_000, 2900]);
    expect(await row(learner.user.id)).toMatchObject({
      status: 'active',
      priceId: priceOf(both, 'month').id,
      currentPeriodStart: yearEnd,
      currentPeriodEnd: monthEnd,
    });
    const after = await store(learner, 'get', `/subscriptions/${id}/billing`);
    expect(after.body.data).toMatchObject({
      interval: 'month',
      scheduledSwitch: null,
      nextCharge: { amount: 2900, on: monthEnd.toISOString() },
      switch: { interval: 'year', startsNow: true },
    });

    // The month's end: the schedule's last phase is over, released; the subscription renews monthly on its own.
    const next = stripe().billing.renew(subscription, 'paid');
    expect(next.map((e) => e.type)).toContain('subscription_schedule.released');
    await deliver(next);
    expect(stripeSub(subscription).schedule).toBeNull();
    expect(await charges(learner.user.id)).toEqual([29_000, 2900, 2900]);
    expect((await row(learner.user.id)).currentPeriodEnd).toEqual(nthPeriodEnd(yearEnd, 'month', 2));
  });

  it('switches a trial to yearly at the trial’s end: nothing charged in the trial, the year charged after it', async () => {
    const learner = await signedIn(db());
    const { id, subscription } = await subscribed(learner, trial, 'month');
    expect(stripeSub(subscription).status).toBe('trialing');
    const trialEnd = fromSeconds(stripeSub(subscription).trial_end!);
    const switched = await store(learner, 'post', `/subscriptions/${id}/switch`, { interval: 'year' });
    expect(switched.status, JSON.stringify(switched.body)).toBe(200);
    expect(switched.body.data).toMatchObject({
      interval: 'month',
      scheduledSwitch: { interval: 'year', amount: 29_000, on: trialEnd.toISOString() },
      nextCharge: { amount: 29_000, on: trialEnd.toISOString() },
    });
    expect(scheduleOf(subscription).phases[0]).toMatchObject({ trial_end: trialEnd.getTime() / 1000 });
    await deliver(stripe().billing.takeEvents());
    expect(await charges(learner.user.id)).toEqual([]);

    await deliver(stripe().billing.renew(subscription, 'paid'));
    expect(await charges(learner.user.id)).toEqual([29_000]);
    expect(await row(learner.user.id)).toMatchObject({
      status: 'active',
      priceId: priceOf(trial, 'year').id,
      currentPeriodStart: trialEnd,
      currentPeriodEnd: nthPeriodEnd(trialEnd, 'year', 1),
    });
    expect(itemOf(subscription).price).toMatchObject({ unit_amount: 29_000, recurring: { interval: 'year' } });
  });

  it('undoes a waiting switch before the period ends, and drops it when cancelled: the year renews as it was', async () => {
    const learner = await signedIn(db());
    const { id, subscription } = await subscribed(learner, both, 'year');
    await store(learner, 'post', `/subscriptions/${id}/switch`, { interval: 'month' });
    const schedule = scheduleOf(subscription).id;

    // Back to yearly: the schedule is released, nothing charged, the year renews at its price.
    const undone = await store(learner, 'post', `/subscriptions/${id}/switch`, { interval: 'year' });
    expect(undone.status, JSON.stringify(undone.body)).toBe(200);
    expect(undone.body.data).toMatchObject({
      interval: 'year',
      scheduledSwitch: null,
      nextCharge: { amount: 29_000 },
      switch: { interval: 'month', startsNow: false },
    });
    expect(stripe().objects.get(schedule)).toMatchObject({ status: 'released', released_subscription: subscription });
    expect(stripeSub(subscription).schedule).toBeNull();
    expect(await row(learner.user.id)).toMatchObject({
      priceId: priceOf(both, 'year').id,
      switchAt: null,
      switchedFromPriceId: null,
    });
    await deliver(stripe().billing.takeEvents());

    // Switched again, then cancelled: the waiting switch is dropped (Stripe refuses to cancel a scheduled
    // subscription directly), and resuming renews the year.
    const again = await store(learner, 'post', `/subscriptions/${id}/switch`, { interval: 'month' });
    expect(again.body.data).toMatchObject({ scheduledSwitch: { interval: 'month' } });
    expect(scheduleOf(subscription).id).not.toBe(schedule);
    const cancelled = await store(learner, 'post', `/subscriptions/${id}/cancel`);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(stripeSub(subscription)).toMatchObject({ schedule: null, cancel_at_period_end: true });
    expect((await row(learner.user.id)).priceId).toBe(priceOf(both, 'year').id);
    expect((await store(learner, 'post', `/subscriptions/${id}/resume`)).status).toBe(200);
    await deliver(stripe().billing.takeEvents());
    await deliver(stripe().billing.renew(subscription, 'paid'));
    expect(await charges(learner.user.id)).toEqual([29_000, 29_000]);
    expect(itemOf(subscription).price).toMatchObject({ recurring: { interval: 'year' } });
  });

  it('records the new period once whatever the order of its events, repeated, and at two replicas at once', async () => {
    const learner = await signedIn(db());
    const { id, subscription } = await subscribed(learner, both, 'year');
    await store(learner, 'post', `/subscriptions/${id}/switch`, { interval: 'month' });
    const yearEnd = fromSeconds(itemOf(subscription).current_period_end);
    const renewal = [...stripe().billing.takeEvents(), ...stripe().billing.renew(subscription, 'paid')];
    // Backwards first, then all of them again at both replicas at once.
    await deliver([...renewal].reverse());
    const answers = await Promise.all(
      renewal.flatMap((event) => [deliverSigned(app(), event), deliverSigned(replica, event)]),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(await charges(learner.user.id)).toEqual([29_000, 2900]);
    const periods = await db()('subscriptionPeriods').where({ subscriptionId: id }).select('outcome');
    expect(periods).toHaveLength(2);
    expect(await row(learner.user.id)).toMatchObject({
      status: 'active',
      priceId: priceOf(both, 'month').id,
      currentPeriodStart: yearEnd,
      currentPeriodEnd: nthPeriodEnd(yearEnd, 'month', 1),
    });
    const billing = await store(learner, 'get', `/subscriptions/${id}/billing`);
    expect(billing.body.data).toMatchObject({ interval: 'month', scheduledSwitch: null });
  });

  it('drops a waiting switch whose schedule is released at Stripe itself, once, and not one that waits again', async () => {
    const learner = await signedIn(db());
    const { id, subscription } = await subscribed(learner, both, 'year');
    await store(learner, 'post', `/subscriptions/${id}/switch`, { interval: 'month' });
    await deliver(stripe().billing.takeEvents());
    // Released from Stripe's dashboard (its own SDK call here): its event, delivered twice and at two replicas.
    const dashboard = stripeClient({ ...standInEnv(stripe()), STRIPE_TIMEOUT_MS: 10_000 });
    const first = scheduleOf(subscription).id;
    await dashboard.subscriptionSchedules.release(first);
    const released = stripe().billing.takeEvents();
    expect(released.map((e) => e.type)).toEqual(['subscription_schedule.released']);
    await Promise.all([deliverSigned(app(), released[0]!), deliverSigned(replica, released[0]!)]);
    await deliver(released);
    expect(await row(learner.user.id)).toMatchObject({ priceId: priceOf(both, 'year').id, switchAt: null });
    expect((await store(learner, 'get', `/subscriptions/${id}/billing`)).body.data).toMatchObject({
      interval: 'year',
      scheduledSwitch: null,
      nextCharge: { amount: 29_000 },
    });

    // Switched again, then the first schedule's release delivered once more (late): the new one still waits.
    const again = await store(learner, 'post', `/subscriptions/${id}/switch`, { interval: 'month' });
    expect(again.body.data).toMatchObject({ scheduledSwitch: { interval: 'month' } });
    expect(scheduleOf(subscription).id).not.toBe(first);
    await deliver(stripe().billing.takeEvents());
    await deliver([{ ...released[0]!, id: `${released[0]!.id}_again` }]);
    expect((await row(learner.user.id)).priceId).toBe(priceOf(both, 'month').id);
    await deliver(stripe().billing.renew(subscription, 'paid'));
    expect(await charges(learner.user.id)).toEqual([29_000, 2900]);
  });

  it('refuses to add seats while a switch waits, and adds them once it is undone', async () => {
    const learner = await signedIn(db());
    const { id, subscription } = await subscribed(learner, both, 'year');
    await store(learner, 'post', `/subscriptions/${id}/switch`, { interval: 'month' });
    const refused = await store(learner, 'post', `/subscriptions/${id}/seats`, { quantity: 1 });
    expect([refused.status, refused.body.code]).toEqual([409, 'seats-not-available']);
    expect(itemOf(subscription).quantity).toBe(1);
    expect(scheduleOf(subscription).phases).toHaveLength(2);
    await store(learner, 'post', `/subscriptions/${id}/switch`, { interval: 'year' });
    const added = await store(learner, 'post', `/subscriptions/${id}/seats`, { quantity: 1 });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(itemOf(subscription).quantity).toBe(2);
  });

  it('answers the storefront the same shapes as the test provider, which waits for the period’s end too', async () => {
    const views: Record<string, { billing: Record<string, unknown>; list: Record<string, unknown> }[]> = {};
    for (const [name, to] of [
      ['stripe', app()],
      ['test provider', testProviderApp],
    ] as const) {
      const learner = await signedIn(db());
      let id: string;
      if (to === app()) id = (await subscribed(learner, both, 'year')).id;
      else {
        const started = await store(learner, 'post', '/subscriptions', { productId: both.id, interval: 'year' }, to);
        expect((await request(to).post(`${new URL(started.body.data.url).pathname}/pay`)).status).toBe(303);
        id = (await store(learner, 'get', '/subscriptions', undefined, to)).body.data[0].id;
      }
      const read = async () => ({
        billing: (await store(learner, 'get', `/subscriptions/${id}/billing`, undefined, to)).body.data,
        list: (await store(learner, 'get', '/subscriptions', undefined, to)).body.data[0],
      });
      const before = await read();
      const switched = await store(learner, 'post', `/subscriptions/${id}/switch`, { interval: 'month' }, to);
      expect(switched.status, JSON.stringify(switched.body)).toBe(200);
      const waiting = await read();
      expect(switched.body.data).toEqual(waiting.billing);
      const undone = await store(learner, 'post', `/subscriptions/${id}/switch`, { interval: 'year' }, to);
      expect(undone.status, JSON.stringify(undone.body)).toBe(200);
      views[name] = [before, waiting, await read()];
    }
    // The same fields and the same values but for ids and days: the storefront cannot tell the providers apart.
    const shape = (view: { billing: Record<string, unknown>; list: Record<string, unknown> }) =>
      JSON.parse(
        JSON.stringify(view, (key, value: unknown) =>
          key === 'id' || key === 'on' || key === 'currentPeriodEnd' || key === 'credit' ? typeof value : value,
        ),
      ) as unknown;
    expect(views.stripe!.map(shape)).toEqual(views['test provider']!.map(shape));
    expect(views.stripe![1]!.billing).toMatchObject({
      interval: 'year',
      scheduledSwitch: { interval: 'month', amount: 2900 },
    });
    expect(views.stripe![2]!.billing).toMatchObject({ interval: 'year', scheduledSwitch: null });
  });
});
