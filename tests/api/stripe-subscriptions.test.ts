import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../api/src/logger';
import { nthPeriodEnd } from '../../api/src/payments/stripe-subscriptions';
import { createServices } from '../../api/src/services';
import { createCoupon, createCourse, createProduct, createRevenueSplit } from '../../seeds/factories';
import { testApp } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import type { ContentResource } from '../support/models';
import { deliverSigned } from '../support/stripe-stand-in';
import { useStripeBilling } from '../support/stripe-billing';

const DAY = 86_400_000;
const fromSeconds = (seconds: number) => new Date(seconds * 1000);
/** The stand-in's fee on a payment, as Stripe's 2.9 % + 30. */
const feeOf = (amount: number) => Math.round(amount * 0.029) + 30;

/** Memberships billed by Stripe Billing, through the real SDK against the local stand-in (docs/domain.md §22). */
describe('memberships through Stripe Billing', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const { stripe, app, config, deliver, stripeSub } = useStripeBilling(db);
  let replica: ReturnType<typeof testApp>;
  let allAccess: Awaited<ReturnType<typeof createProduct>>;
  let course: { course: ContentResource; lessons: ContentResource[] };

  beforeAll(async () => {
    // Another replica: its own services and connections' work, the same database.
    replica = testApp(db(), { config: config() });
    allAccess = await createProduct(db(), {
      name: 'All access on Stripe',
      productType: 'membership',
      billingInterval: 'month',
      grantsWholeCatalog: true,
      unitAmount: 2900,
    });
    await createRevenueSplit(db(), { productId: allAccess.id, type: 'platform', percent: 0.3 });
    course = await createCourse(db(), {
      title: 'Course in the catalog',
      modules: [
        {
          title: 'One',
          sections: [{ title: 'A', lessons: [1, 2, 3].map((n) => ({ title: `L${n}`, body: '<p>x</p>' })) }],
        },
      ],
    });
  });

  const store = (who: SignedIn, method: 'get' | 'post', path: string, body?: object) =>
    as(who, request(app())[method](`/api/store${path}`)).send(body);
  const mine = async (who: SignedIn) => (await store(who, 'get', '/subscriptions')).body.data[0];
  const lessonOpen = async (who: SignedIn) => {
    const lesson = await store(who, 'get', `/courses/${course.course.fields.slug}/lessons/${course.lessons[1]!.id}`);
    expect(lesson.status).toBe(200);
    return lesson.body.open as boolean;
  };
  const charges = (userId: string) =>
    db()('merchantCharges').where({ userId }).orderBy('createdAt').select('id', 'identifier', 'amount', 'fee', 'net');
  const periods = (subscriptionId: string) =>
    db()('subscriptionPeriods').where({ subscriptionId }).orderBy('createdAt').select('outcome', 'merchantChargeId');
  const services = () =>
    createServices({ db: db(), clock: { now: () => new Date() }, config: config(), logger: createLogger('silent') });
  const failureEmails = async (who: SignedIn) =>
    (await db()('outboxEmails').where({ toAddress: who.user.email, kind: 'subscription-payment-failed' })).length;
  const periodEndOf = (id: string) => fromSeconds(stripeSub(id).items.data[0]!.current_period_end).toISOString();

  /** Subscribes on Stripe's Checkout page: the session, Stripe's subscription and the events it sends. */
  async function subscribeAtStripe(who: SignedIn, product: { id: string } = allAccess) {
    const started = await store(who, 'post', '/subscriptions', { productId: product.id });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const sessionId = new URL(started.body.data.url).pathname.split('/').at(-1)!;
    const { subscription, events } = stripe().billing.subscribe(sessionId);
    return { sessionId, subscription, events };
  }

  it('subscribes in Checkout, opens the courses from the first paid invoice and bills each renewal as a charge', async () => {
    const learner = await signedIn(db(), ['learner'], 'stripe-member@example.com');
    expect(await lessonOpen(learner)).toBe(false);
    const { sessionId, subscription, events } = await subscribeAtStripe(learner);
    const session = stripe().objects.get(sessionId)!;
    expect(session).toMatchObject({
      mode: 'subscription',
      customer_email: 'stripe-member@example.com',
      metadata: { userId: learner.user.id, productId: allAccess.id },
      subscription_spec: { metadata: { userId: learner.user.id, productId: allAccess.id } },
    });
    expect(session.client_reference_id).toBe((session.metadata as Record<string, string>).reference);
    expect(stripe().objects.get((session.line_items_spec as { price: string }[])[0]!.price)).toMatchObject({
      unit_amount: 2900,
      recurring: { interval: 'month' },
    });
    expect(events.map((e) => e.type)).toEqual([
      'customer.created',
      'customer.subscription.created',
      'invoice.created',
      'invoice.finalized',
      'invoice.paid',
      'invoice.payment_succeeded',
      'checkout.session.completed',
    ]);
    await deliver(events);

    const sub = await mine(learner);
    expect(sub).toMatchObject({ productId: allAccess.id, status: 'active', cancelAtPeriodEnd: false });
    expect(sub.id).toBe(session.client_reference_id);
    expect(sub.currentPeriodEnd).toBe(periodEndOf(subscription));
    expect(await lessonOpen(learner)).toBe(true);
    // The completed session is a subscription's: no one-time checkout or purchase is made of it.
    expect(await db()('purchases').where({ userId: learner.user.id })).toEqual([]);

    // The first invoice is a charge (Stripe's fee), its split lines to its net, and an invoice of ours.
    const [first] = await charges(learner.user.id);
    const paidInvoice = stripe().objects.get(stripeSub(subscription).latest_invoice as string)!;
    expect(first).toMatchObject({ amount: 2900, fee: feeOf(2900), net: 2900 - feeOf(2900) });
    // What Stripe settled for it, as reconciliation matches any charge.
    const settled = await db()('merchantCharges').where({ id: first!.id }).first('settlementIdentifier');
    expect(settled.settlementIdentifier).toBe(stripe().balanceTransactionOf(first!.identifier).id);
    expect(stripe().objects.get(first!.identifier)).toMatchObject({ object: 'charge', customer: paidInvoice.customer });
    const lines = await db()('splitLines').where({ merchantChargeId: first!.id }).sum({ sum: 'amount' });
    expect(Number(lines[0]!.sum)).toBe(first!.net);
    expect(await db()('invoices').where({ merchantChargeId: first!.id, kind: 'invoice' })).toHaveLength(1);

    // A renewal, paid: the next period, a second charge and invoice.
    const renewal = stripe().billing.renew(subscription, 'paid');
    expect(renewal.map((e) => e.type)).toEqual([
      'invoice.created',
      'customer.subscription.updated',
      'invoice.finalized',
      'invoice.paid',
      'invoice.payment_succeeded',
    ]);
    await deliver(renewal);
    expect((await mine(learner)).currentPeriodEnd).toBe(periodEndOf(subscription));
    const afterRenewal = await charges(learner.user.id);
    expect(afterRenewal).toHaveLength(2);
    expect(await db()('invoices').where({ merchantChargeId: afterRenewal[1]!.id })).toHaveLength(1);

    // A renewal that fails: past due, the courses open through the grace; Smart Retries pay it: active again.
    const failed = stripe().billing.renew(subscription, 'failed');
    expect(failed.map((e) => e.type)).toEqual([
      'invoice.created',
      'customer.subscription.updated',
      'invoice.finalized',
      'invoice.payment_failed',
      'customer.subscription.updated',
    ]);
    // Stripe moves the period when it makes the invoice and tries the payment later (an hour at least): the new
    // period is read while the subscription is still active, the failure comes, then the subscription's past_due.
    const renewing = fromSeconds(stripeSub(subscription).items.data[0]!.current_period_start);
    const accountId = await services().payments.accountId();
    expect(
      await services().subscriptions.recordState(accountId, {
        identifier: subscription,
        reference: sub.id,
        metadata: stripeSub(subscription).metadata,
        status: 'active',
        cancelAtPeriodEnd: false,
        currentPeriodStart: renewing,
        currentPeriodEnd: new Date(periodEndOf(subscription)),
        observedAt: new Date(),
      }),
    ).toEqual({ recorded: true });
    await deliver(failed.filter((e) => e.type === 'invoice.payment_failed'));
    expect(await failureEmails(learner)).toBe(0);
    await deliver(failed);
    const pastDue = await db()('subscriptions').where({ id: sub.id }).first();
    expect(pastDue.status).toBe('past_due');
    expect(new Date(pastDue.graceUntil).getTime() - Date.now()).toBeGreaterThan(6 * DAY);
    expect(await lessonOpen(learner)).toBe(true);
    // Going past due after its failed invoice was recorded emails the learner, once.
    expect(await failureEmails(learner)).toBe(1);
    await deliver(stripe().billing.retry(subscription, 'failed'));
    expect(await failureEmails(learner)).toBe(2);
    // A second failed attempt of the same invoice is recorded too, and keeps the grace the first one started.
    expect((await db()('subscriptions').where({ id: sub.id }).first()).graceUntil).toEqual(pastDue.graceUntil);
    await deliver(stripe().billing.retry(subscription, 'paid'));
    expect(await mine(learner)).toMatchObject({ status: 'active', currentPeriodEnd: periodEndOf(subscription) });
    expect((await db()('subscriptions').where({ id: sub.id }).first()).graceUntil).toBeNull();
    expect((await periods(sub.id)).map((p) => p.outcome)).toEqual(['paid', 'paid', 'failed', 'failed', 'paid']);
    expect(await charges(learner.user.id)).toHaveLength(3);
  });

  it('cancels at the period end and resumes at Stripe; a subscription Stripe ends closes the courses', async () => {
    const learner = await signedIn(db());
    const { subscription, events } = await subscribeAtStripe(learner);
    await deliver(events);
    const { id } = await mine(learner);

    const cancelled = await store(learner, 'post', `/subscriptions/${id}/cancel`);
    expect(cancelled.body.data).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    expect(stripeSub(subscription).cancel_at_period_end).toBe(true);
    await deliver(stripe().billing.takeEvents());
    expect(await mine(learner)).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });

    const resumed = await store(learner, 'post', `/subscriptions/${id}/resume`);
    expect(resumed.body.data).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
    expect(stripeSub(subscription).cancel_at_period_end).toBe(false);
    await deliver(stripe().billing.takeEvents());
    expect(await mine(learner)).toMatchObject({ cancelAtPeriodEnd: false });

    // Cancelled again: at the period's end Stripe ends it instead of renewing (customer.subscription.deleted).
    await store(learner, 'post', `/subscriptions/${id}/cancel`);
    await deliver(stripe().billing.takeEvents());
    const ended = stripe().billing.renew(subscription, 'paid');
    expect(ended.map((e) => e.type)).toEqual(['customer.subscription.deleted']);
    await deliver(ended);
    expect((await mine(learner)).status).toBe('canceled');
    expect(await lessonOpen(learner)).toBe(false);
    expect(await charges(learner.user.id)).toHaveLength(1);
  });

  it('records events delivered out of order and twice once, and never moves a subscription backwards', async () => {
    const learner = await signedIn(db());
    const { subscription, events } = await subscribeAtStripe(learner);
    // The subscription's own event first (before any invoice's), then everything twice, the invoice's first.
    const created = events.find((e) => e.type === 'customer.subscription.created')!;
    const paid = events.find((e) => e.type === 'invoice.paid')!;
    await deliver([created]);
    expect(await mine(learner)).toMatchObject({ status: 'active', currentPeriodEnd: periodEndOf(subscription) });
    expect(await lessonOpen(learner)).toBe(true);
    await deliver([paid, ...events, ...events]);
    const { id } = await mine(learner);
    expect(await charges(learner.user.id)).toHaveLength(1);
    expect(await periods(id)).toHaveLength(1);

    // A renewal that failed, then paid on a retry, delivered the other way round: the late failure (its invoice and
    // the subscription's past_due) changes nothing.
    const failed = stripe().billing.renew(subscription, 'failed');
    const retried = stripe().billing.retry(subscription, 'paid');
    await deliver(retried);
    await deliver(failed);
    const after = await db()('subscriptions').where({ id }).first();
    expect(after).toMatchObject({ status: 'active', graceUntil: null });
    expect(after.currentPeriodEnd.toISOString()).toBe(periodEndOf(subscription));
    expect(await charges(learner.user.id)).toHaveLength(2);

    // A state read before the one recorded (an older updated event's), handed in late, changes nothing either.
    const services = createServices({
      db: db(),
      clock: { now: () => new Date() },
      config: config(),
      logger: createLogger('silent'),
    });
    const accountId = await services.payments.accountId();
    const older = {
      identifier: subscription,
      reference: id,
      metadata: stripeSub(subscription).metadata,
      status: 'past_due' as const,
      cancelAtPeriodEnd: true,
      currentPeriodStart: new Date(after.currentPeriodStart),
      currentPeriodEnd: new Date(after.currentPeriodEnd),
      observedAt: new Date(new Date(after.providerStateAt).getTime() - 1000),
    };
    expect(await services.subscriptions.recordState(accountId, older)).toEqual({ recorded: false });
    expect(await mine(learner)).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
    // Lapsed by our grace while Stripe still retries: its past_due gives no new grace; a payment's active reopens.
    await db()('subscriptions').where({ id }).update({ status: 'lapsed', graceUntil: null });
    const later = {
      ...older,
      cancelAtPeriodEnd: false,
      observedAt: new Date(new Date(after.providerStateAt).getTime() + 1),
    };
    expect(await services.subscriptions.recordState(accountId, later)).toEqual({ recorded: false });
    expect((await mine(learner)).status).toBe('lapsed');
    const paidAgain = {
      ...later,
      status: 'active' as const,
      observedAt: new Date(new Date(after.providerStateAt).getTime() + 2),
    };
    expect(await services.subscriptions.recordState(accountId, paidAgain)).toEqual({ recorded: true });
    expect((await mine(learner)).status).toBe('active');

    // Ended at Stripe; its last invoice's event arriving after that does not bring it back.
    const renewal = stripe().billing.renew(subscription, 'paid');
    await deliver(stripe().billing.end(subscription));
    await deliver(renewal);
    expect((await mine(learner)).status).toBe('canceled');
    expect(await charges(learner.user.id)).toHaveLength(3);
  });

  it('acknowledges an abandoned subscription checkout and makes nothing of it', async () => {
    const learner = await signedIn(db());
    const started = await store(learner, 'post', '/subscriptions', { productId: allAccess.id });
    const sessionId = new URL(started.body.data.url).pathname.split('/').at(-1)!;
    const expired = stripe().expire(sessionId);
    expect((await deliverSigned(app(), expired)).body).toEqual({ received: true });
    expect(await db()('merchantEvents').where({ identifier: expired.id }).first('processedAt')).toMatchObject({
      processedAt: expect.any(Date),
    });
    expect(await db()('subscriptions').where({ userId: learner.user.id })).toEqual([]);
    expect(await db()('checkouts').where({ buyerUserId: learner.user.id })).toEqual([]);
  });

  it('records an event two replicas receive at once exactly once', async () => {
    const learner = await signedIn(db());
    const { subscription, events } = await subscribeAtStripe(learner);
    const renewal = stripe().billing.renew(subscription, 'paid');
    const all = [...events, ...renewal];
    const answers = await Promise.all(
      all.flatMap((event) => [deliverSigned(app(), event), deliverSigned(replica, event), deliverSigned(app(), event)]),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const { id } = await mine(learner);
    expect(await charges(learner.user.id)).toHaveLength(2);
    expect((await periods(id)).map((p) => p.outcome)).toEqual(['paid', 'paid']);
    expect((await mine(learner)).currentPeriodEnd).toBe(periodEndOf(subscription));
    const processed = await db()('merchantEvents').whereIn(
      'identifier',
      all.map((e) => e.id),
    );
    expect(processed.every((e: { processedAt: Date | null }) => e.processedAt)).toBe(true);
  });

  it('takes a coupon off the periods it lasts and adds the tax on top, as Stripe bills the seats', async () => {
    const learner = await signedIn(db());
    const services = createServices({
      db: db(),
      clock: { now: () => new Date() },
      config: config(),
      logger: createLogger('silent'),
    });
    const started = await services.payments.subscriptions!.createSubscription({
      reference: crypto.randomUUID(),
      description: 'All access for two',
      amount: 4000,
      quantity: 2,
      discount: { bp: 2500, periods: 2, label: 'SPRING' },
      tax: { rate: 1000, inclusive: false },
      currency: 'usd',
      interval: 'month',
      trialDays: 0,
      customerEmail: 'team-lead@example.com',
      successUrl: 'http://localhost:3000/learning',
      cancelUrl: 'http://localhost:3000/',
      metadata: { userId: learner.user.id, productId: allAccess.id, priceId: allAccess.prices[0]!.id },
    });
    const { subscription, events } = stripe().billing.subscribe(started.identifier);
    expect(stripeSub(subscription).items.data[0]).toMatchObject({ quantity: 2, price: { unit_amount: 2000 } });
    await deliver(events);
    await deliver(stripe().billing.renew(subscription, 'paid'));
    await deliver(stripe().billing.renew(subscription, 'paid'));
    // 40.00 less 25 % is 30.00, and 10 % on top: 33.00 for two periods, then 44.00.
    expect((await charges(learner.user.id)).map((c) => c.amount)).toEqual([3300, 3300, 4400]);
    const billed = await db()('subscriptionPeriods as sp')
      .join('subscriptions as s', 's.id', 'sp.subscriptionId')
      .where('s.userId', learner.user.id)
      .orderBy('sp.periodStart')
      .select('sp.discountAmount');
    expect(billed.map((p: { discountAmount: number }) => p.discountAmount)).toEqual([1000, 1000, 0]);
  });

  it('counts a coupon for a number of periods from the first paid one, after a trial', async () => {
    const learner = await signedIn(db());
    const started = await services().payments.subscriptions!.createSubscription({
      reference: crypto.randomUUID(),
      description: 'All access',
      amount: 2000,
      discount: { bp: 5000, periods: 1, label: 'FIRSTMONTH' },
      currency: 'usd',
      interval: 'month',
      // Longer than any month: a coupon counted from subscribing would be used up by the trial.
      trialDays: 35,
      customerEmail: 'trial-coupon@example.com',
      successUrl: 'http://localhost:3000/learning',
      cancelUrl: 'http://localhost:3000/',
      metadata: { userId: learner.user.id, productId: allAccess.id, priceId: allAccess.prices[0]!.id },
    });
    const { subscription, events } = stripe().billing.subscribe(started.identifier);
    await deliver(events);
    await deliver(stripe().billing.renew(subscription, 'paid'));
    expect(stripeSub(subscription).discounts).toEqual([]);
    await deliver(stripe().billing.renew(subscription, 'paid'));
    // The trial is free, the first paid month half off, the next in full.
    expect((await charges(learner.user.id)).map((c) => c.amount)).toEqual([1000, 2000]);
  });

  it('records a period the provider restarted sooner (yearly to monthly) and an end read with it', async () => {
    const learner = await signedIn(db());
    const { subscription, events } = await subscribeAtStripe(learner);
    await deliver(events);
    const { id } = await mine(learner);
    const accountId = await services().payments.accountId();
    const row = await db()('subscriptions').where({ id }).first();
    // Our row holds a year; the provider restarts the period now as a month, then ends the subscription.
    const yearEnd = new Date(new Date(row.currentPeriodStart).getTime() + 365 * DAY);
    await db()('subscriptions').where({ id }).update({ currentPeriodEnd: yearEnd });
    const restartedAt = new Date(new Date(row.currentPeriodStart).getTime() + 30 * DAY);
    const state = {
      identifier: subscription,
      reference: id,
      metadata: stripeSub(subscription).metadata,
      status: 'active' as const,
      cancelAtPeriodEnd: false,
      currentPeriodStart: restartedAt,
      currentPeriodEnd: new Date(restartedAt.getTime() + 30 * DAY),
      observedAt: new Date(new Date(row.providerStateAt).getTime() + 1),
    };
    const recordState = services().subscriptions.recordState;
    expect(await recordState(accountId, state)).toEqual({ recorded: true });
    expect(new Date((await mine(learner)).currentPeriodEnd)).toEqual(state.currentPeriodEnd);
    // An end read with a period ending before ours still ends it.
    await db()('subscriptions').where({ id }).update({ currentPeriodEnd: yearEnd });
    const ended = { ...state, status: 'canceled' as const, observedAt: new Date(state.observedAt.getTime() + 2) };
    expect(await recordState(accountId, ended)).toEqual({ recorded: true });
    expect((await mine(learner)).status).toBe('canceled');
    expect(await lessonOpen(learner)).toBe(false);
  });

  it("keeps the seats, coupon and tax place when Stripe's subscription event comes before its first invoice's", async () => {
    await db()('schoolSettings').update({ taxCountry: 'DE', taxId: 'DE123456789', taxInclusiveCurrencies: ['eur'] });
    await db()('taxRegistrations').insert({ country: 'GB', region: null }).onConflict().ignore();
    await db()('taxRates').insert({ country: 'GB', region: null, rateBp: 2000, name: 'VAT' }).onConflict().ignore();
    const coupon = await createCoupon(db(), { percentageDiscount: 0.25 });
    const learner = await signedIn(db());
    const started = await services().payments.subscriptions!.createSubscription({
      reference: crypto.randomUUID(),
      description: 'All access for three',
      amount: 6000,
      quantity: 3,
      discount: { bp: 2500, periods: null, label: coupon.code! },
      tax: { rate: 2000, inclusive: false },
      currency: 'usd',
      interval: 'month',
      trialDays: 0,
      customerEmail: 'team-of-three@example.com',
      successUrl: 'http://localhost:3000/learning',
      cancelUrl: 'http://localhost:3000/',
      metadata: {
        userId: learner.user.id,
        productId: allAccess.id,
        priceId: allAccess.prices[0]!.id,
        quantity: '3',
        couponId: coupon.id,
        taxCountry: 'GB',
        pppBp: '3000',
      },
    });
    const { events } = stripe().billing.subscribe(started.identifier);
    // Stripe's order: the subscription's event, then its invoice's.
    expect(events.findIndex((e) => e.type === 'customer.subscription.created')).toBeLessThan(
      events.findIndex((e) => e.type === 'invoice.paid'),
    );
    await deliver(events);
    const sub = await db()('subscriptions').where({ userId: learner.user.id }).first();
    expect(sub).toMatchObject({ quantity: 3, couponId: coupon.id, taxCountry: 'GB', pppBp: 3000 });
    expect((await db()('coupons').where({ id: coupon.id }).first('usedCount')).usedCount).toBe(1);
    // 60.00 less 25 % is 45.00, and 20 % VAT on top: 54.00, the tax recorded on the period's charge.
    const [charge] = await db()('merchantCharges').where({ userId: learner.user.id }).select('amount', 'taxAmount');
    expect(charge).toMatchObject({ amount: 5400, taxAmount: 900 });
  });

  it('opens the customer portal for the card, ends a subscription now, moves it to another price and ends a plan after its periods', async () => {
    const learner = await signedIn(db());
    const { subscription, events } = await subscribeAtStripe(learner);
    await deliver(events);
    const services = createServices({
      db: db(),
      clock: { now: () => new Date() },
      config: config(),
      logger: createLogger('silent'),
    });
    const billing = services.payments.subscriptions!;

    const url = await billing.paymentMethodUrl!(subscription, 'http://localhost:3000/subscriptions');
    expect(url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\/bps_/);
    const portal = [...stripe().objects.values()].find(
      (o) => o.object === 'billing_portal.session' && url.endsWith(o.id),
    )!;
    expect(portal).toMatchObject({
      customer: stripeSub(subscription).customer,
      return_url: 'http://localhost:3000/subscriptions',
      // Straight to the card, not the portal's home (where a plan could be cancelled), and back.
      flow: {
        type: 'payment_method_update',
        after_completion: { type: 'redirect', redirect: { return_url: 'http://localhost:3000/subscriptions' } },
      },
    });

    // Yearly from ten days on: the unused part of the month credited, the year billed at once as one invoice.
    stripe().billing.advance(subscription, 10 * 86_400);
    const yearly = {
      amount: 29_000,
      currency: 'usd',
      interval: 'year' as const,
      quantity: 1,
      priceId: allAccess.prices[0]!.id,
    };
    // A cheaper price, nothing to pay now, would apply at once at Stripe rather than at the period's end: refused.
    const cheaper = { ...yearly, amount: 1900, interval: 'month' as const };
    await expect(billing.changePrice!(subscription, cheaper)).rejects.toMatchObject({
      code: 'switch-at-period-end-unavailable',
    });
    expect(stripeSub(subscription).items.data[0]!.price).toMatchObject({ unit_amount: 2900 });
    // A declined card changes nothing at Stripe: the change stays pending, and the learner is told.
    stripe().billing.declineNextChange(subscription);
    await expect(billing.changePrice!(subscription, yearly)).rejects.toMatchObject({ code: 'payment-declined' });
    expect(stripeSub(subscription).items.data[0]!.price).toMatchObject({ unit_amount: 2900 });
    expect(stripe().billing.takeEvents()).toEqual([]);
    await billing.changePrice!(subscription, yearly);
    const switched = stripe().billing.takeEvents();
    expect(switched.map((e) => e.type)).toContain('invoice.paid');
    await deliver(switched);
    const item = stripeSub(subscription).items.data[0]!;
    expect(item.price).toMatchObject({ unit_amount: 29_000, recurring: { interval: 'year' } });
    expect((await mine(learner)).currentPeriodEnd).toBe(periodEndOf(subscription));
    const [, proration] = await charges(learner.user.id);
    const invoice = stripe().objects.get(stripeSub(subscription).latest_invoice as string)!;
    expect(invoice).toMatchObject({ billing_reason: 'subscription_update', amount_paid: proration!.amount });
    expect(proration!.amount).toBeGreaterThan(29_000 - 2900);
    expect(proration!.amount).toBeLessThan(29_000);

    await billing.cancelNow!(subscription);
    await deliver(stripe().billing.takeEvents());
    expect((await mine(learner)).status).toBe('canceled');
    expect(await lessonOpen(learner)).toBe(false);

    // A plan of three monthly payments: once Checkout made it, it ends at its third period's end, and no sooner.
    const planner = await signedIn(db());
    const started = await billing.createSubscription({
      reference: crypto.randomUUID(),
      description: 'Course in three payments',
      amount: 5000,
      currency: 'usd',
      interval: 'month',
      trialDays: 0,
      customerEmail: 'planner@example.com',
      successUrl: 'http://localhost:3000/learning',
      cancelUrl: 'http://localhost:3000/',
      metadata: { userId: planner.user.id, productId: allAccess.id, priceId: allAccess.prices[0]!.id },
      iterations: 3,
    });
    const plan = stripe().billing.subscribe(started.identifier);
    await deliver(plan.events);
    await deliver(plan.events.filter((e) => e.type === 'checkout.session.completed'));
    const anchor = fromSeconds(stripeSub(plan.subscription).billing_cycle_anchor);
    expect(stripeSub(plan.subscription).cancel_at).toBe(nthPeriodEnd(anchor, 'month', 3).getTime() / 1000);
    expect(stripe().calls.get('POST /v1/subscriptions/:id')).toBeGreaterThan(0);
    await deliver([...stripe().billing.takeEvents(), ...stripe().billing.renew(plan.subscription, 'paid')]);
    await deliver(stripe().billing.renew(plan.subscription, 'paid'));
    const nextRenewal = stripe().billing.renew(plan.subscription, 'paid');
    expect(nextRenewal.map((e) => e.type)).toEqual(['customer.subscription.deleted']);
    expect(await charges(planner.user.id)).toHaveLength(3);
  });
});
