import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProduct, createRevenueSplit } from '../../seeds/factories';
import { testApp, testConfig } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { manualClock, onTheHour } from '../support/clock';
import { useTestDatabase } from '../support/db';
import { runSeeds } from '../../seeds/run';
import { periodEnd } from '../../api/src/payments/test-provider-subscriptions';
import type { Product } from '../../api/src/catalog/models';

type Row = Record<string, unknown>;

/** The console's subscriptions: lists, exports, a period refunded and a subscription ended, each with its reason. */
describe('subscriptions in the console', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const start = onTheHour();
  const clock = manualClock(start);
  let app: ReturnType<typeof testApp>;
  let monthly: Product;
  let support: SignedIn;
  let finance: SignedIn;

  beforeAll(async () => {
    await runSeeds(db(), { demo: false });
    app = testApp(db(), { clock, config: testConfig() });
    monthly = await createProduct(db(), {
      name: 'Console membership',
      productType: 'membership',
      billingInterval: 'month',
      grantsWholeCatalog: true,
      unitAmount: 2900,
    });
    await createRevenueSplit(db(), { productId: monthly.id, type: 'platform', percent: 0.3 });
    support = await signedIn(db(), ['support']);
    finance = await signedIn(db(), ['finance']);
  });

  const admin = (who: SignedIn, path: string, query: Record<string, unknown> = {}) =>
    as(who, request(app).get(`/api/admin${path}`)).query(
      Object.fromEntries(Object.entries(query).map(([k, v]) => [k, JSON.stringify(v)])),
    );
  const post = (who: SignedIn, path: string, body: object) =>
    as(who, request(app).post(`/api/admin${path}`)).send(body);
  const renew = (id: string, outcome: 'paid' | 'failed') =>
    request(app).post(`/test-provider/subscriptions/${id}/renew`).send({ outcome });

  /** A learner subscribed at the test provider's page: their subscription's id. */
  async function subscribed(learner: SignedIn): Promise<string> {
    const started = await as(learner, request(app).post('/api/store/subscriptions')).send({ productId: monthly.id });
    expect(started.status).toBe(201);
    const { pathname } = new URL(started.body.data.url);
    expect((await request(app).post(`${pathname}/pay`)).status).toBe(303);
    const mine = await as(learner, request(app).get('/api/store/subscriptions'));
    return mine.body.data[0].id;
  }
  const periodsOf = async (id: string) =>
    (await admin(finance, '/subscription-periods', { filter: { subscriptionId: id }, sort: ['periodStart', 'ASC'] }))
      .body as Row[];
  const storeStatus = async (learner: SignedIn) =>
    (await as(learner, request(app).get('/api/store/subscriptions'))).body.data[0].status as string;

  it('lists subscriptions with their status now, membership, interval and price; filters, sorts, exports and shows one', async () => {
    const learner = await signedIn(db(), ['learner'], `listed-${Date.now()}@example.com`);
    const id = await subscribed(learner);
    const list = await admin(support, '/subscriptions', { filter: { userId: learner.user.id } });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      expect.objectContaining({
        id,
        productId: monthly.id,
        status: 'active',
        interval: 'month',
        amount: 2900,
        currency: 'usd',
        cancelAtPeriodEnd: false,
        currentPeriodEnd: periodEnd(start, 'month').toISOString(),
      }),
    ]);
    expect(list.headers['content-range']).toBe('subscriptions 0-0/1');
    const active = await admin(support, '/subscriptions', { filter: { status: 'lapsed', userId: learner.user.id } });
    expect(active.body).toEqual([]);
    const byEnd = await admin(support, '/subscriptions', { sort: ['currentPeriodEnd', 'DESC'] });
    const ends = (byEnd.body as Row[]).map((r) => r.currentPeriodEnd as string);
    expect(ends).toEqual([...ends].sort().reverse());

    const csv = await as(support, request(app).get('/api/admin/subscriptions/export.csv')).query({
      filter: JSON.stringify({ userId: learner.user.id }),
    });
    expect(csv.status).toBe(200);
    const [head, line] = csv.text.trim().split('\n');
    expect(head).toContain('Subscriber email');
    expect(line).toContain(learner.user.email);
    expect(line).toContain('Console membership');
    expect(line).toContain('29.00');

    const one = await admin(support, `/subscriptions/${id}`);
    expect(one.body).toMatchObject({ id, status: 'active', userId: learner.user.id });
    await renew(id, 'failed');
    const [first, failed] = await periodsOf(id);
    expect(first).toMatchObject({ outcome: 'paid', amount: 2900, refundedAmount: 0, currency: 'usd' });
    expect(first!.invoiceId).toEqual(expect.any(String));
    expect(failed).toMatchObject({ outcome: 'failed', merchantChargeId: null });
    expect((await admin(support, `/subscriptions/${id}`)).body.status).toBe('past_due');

    // A payment plan's subscription says how many of its instalments are paid.
    const planned = await createProduct(db(), { name: 'Planned course', unitAmount: 3000 });
    const [plan] = await db()('paymentPlans')
      .insert({ productId: planned.id, instalments: 3, instalmentAmount: 1000, currency: 'usd' })
      .returning('id');
    await db()('subscriptions').where({ id }).update({ paymentPlanId: plan.id });
    expect((await admin(support, `/subscriptions/${id}`)).body).toMatchObject({ instalments: 3, paidPeriods: 1 });
  });

  it('refunds one paid period: only its charge and split lines go back, a credit note is issued, access stays', async () => {
    const learner = await signedIn(db(), ['learner'], `refunded-${Date.now()}@example.com`);
    const id = await subscribed(learner);
    expect((await renew(id, 'paid')).status).toBe(200);
    const [first, second] = await periodsOf(id);
    const body = { reasonCode: 'customer-request', reason: 'charged by mistake' };

    // Support reads but does not refund; a refund says why.
    expect((await post(support, `/subscription-periods/${first!.id}/refund`, body)).status).toBe(403);
    const unexplained = await post(finance, `/subscription-periods/${first!.id}/refund`, { reasonCode: 'other' });
    expect(unexplained.status).toBe(400);
    expect(unexplained.body.errors).toHaveProperty('reason');

    const refunded = await post(finance, `/subscription-periods/${first!.id}/refund`, body);
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    expect(refunded.body.data).toMatchObject({
      id,
      status: 'active',
      refund: { amount: 2900, refundAmount: 2900, full: true },
    });
    const charge = await db()('merchantCharges').where({ id: first!.merchantChargeId }).first();
    expect(charge.refundAmount).toBe(2900);
    const [lines] = await db()('splitLines')
      .where({ merchantChargeId: first!.merchantChargeId, kind: 'refund' })
      .sum({ sum: 'amount' });
    expect(Number(lines!.sum)).toBe(-2900);
    const other = await db()('merchantCharges').where({ id: second!.merchantChargeId }).first();
    expect(other.refundAmount).toBe(0);
    const untouched = await db()('splitLines')
      .where({ merchantChargeId: second!.merchantChargeId })
      .whereNot({ kind: 'sale' });
    expect(untouched).toEqual([]);
    expect(
      await db()('invoices').where({ merchantChargeId: first!.merchantChargeId, kind: 'credit-note' }),
    ).toHaveLength(1);
    expect(
      await db()('outboxEmails').where({ toAddress: learner.user.email }).whereILike('subject', '%refund%'),
    ).toHaveLength(1);
    const audit = await db()('auditLogs').where({ resource: 'subscriptions', recordId: id }).first();
    expect(audit).toMatchObject({ action: 'subscription.period-refunded', actorId: finance.user.id });
    expect(audit.after).toMatchObject({
      periodId: first!.id,
      amount: 2900,
      reason: expect.stringContaining('mistake'),
    });
    expect((await periodsOf(id))[0]).toMatchObject({ refundedAmount: 2900 });
    // Access is kept: refunding a period does not end the subscription by itself.
    expect(await storeStatus(learner)).toBe('active');

    // Refunded once; a trial or a failed period has nothing to refund.
    const again = await post(finance, `/subscription-periods/${first!.id}/refund`, body);
    expect([again.status, again.body.code]).toEqual([409, 'refund-not-possible']);
    await renew(id, 'failed');
    const failed = (await periodsOf(id)).find((p) => p.outcome === 'failed')!;
    const nothing = await post(finance, `/subscription-periods/${failed.id}/refund`, body);
    expect([nothing.status, nothing.body.code]).toEqual([409, 'refund-not-possible']);
    const unknown = await post(finance, '/subscription-periods/00000000-0000-4000-8000-000000000000/refund', body);
    expect(unknown.status).toBe(404);
  });

  it('refunds a period and cancels with it: the subscription ends now and the provider bills no more', async () => {
    const learner = await signedIn(db(), ['learner'], `ended-${Date.now()}@example.com`);
    const id = await subscribed(learner);
    const [period] = await periodsOf(id);
    const ended = await post(finance, `/subscription-periods/${period!.id}/refund`, {
      reasonCode: 'customer-request',
      reason: 'asked to leave at once',
      cancel: true,
    });
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    expect(ended.body.data).toMatchObject({ status: 'canceled', refund: { amount: 2900 } });
    expect(await storeStatus(learner)).toBe('canceled');
    expect((await renew(id, 'paid')).body.code).toBe('subscription-not-renewable');
    const actions = await db()('auditLogs')
      .where({ resource: 'subscriptions', recordId: id })
      .orderBy('id')
      .pluck('action');
    expect(actions).toEqual(['subscription.period-refunded', 'subscription.canceled']);
  });

  it('ends a subscription at its period end or now, with a reason; an ended one cannot be ended again', async () => {
    const learner = await signedIn(db(), ['learner'], `cancelled-${Date.now()}@example.com`);
    const id = await subscribed(learner);
    const silent = await post(support, `/subscriptions/${id}/cancel`, { when: 'period-end' });
    expect(silent.status).toBe(400);
    expect(silent.body.errors).toHaveProperty('reason');
    expect((await post(learner, `/subscriptions/${id}/cancel`, { when: 'now', reason: 'no reason' })).status).toBe(403);

    const atEnd = await post(support, `/subscriptions/${id}/cancel`, { when: 'period-end', reason: 'moving abroad' });
    expect(atEnd.status).toBe(200);
    expect(atEnd.body.data).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    expect(await storeStatus(learner)).toBe('active');
    const provider = await db()('testProviderSubscriptions').where({ reference: id }).first();
    expect(provider.cancelAtPeriodEnd).toBe(true);

    const now = await post(support, `/subscriptions/${id}/cancel`, { when: 'now', reason: 'abusive in the forum' });
    expect(now.body.data).toMatchObject({ status: 'canceled' });
    expect(await storeStatus(learner)).toBe('canceled');
    expect((await db()('testProviderSubscriptions').where({ reference: id }).first()).status).toBe('canceled');
    const again = await post(support, `/subscriptions/${id}/cancel`, { when: 'now', reason: 'once more' });
    expect([again.status, again.body.code]).toEqual([409, 'subscription-not-renewable']);

    const audit = await db()('auditLogs').where({ resource: 'subscriptions', recordId: id }).orderBy('id');
    expect(audit.map((a) => [a.action, a.after.reason])).toEqual([
      ['subscription.cancel-at-period-end', 'moving abroad'],
      ['subscription.canceled', 'abusive in the forum'],
    ]);
    // The person's timeline tells both, with their reasons.
    const timeline = await admin(support, `/users/${learner.user.id}/timeline`);
    expect(
      (timeline.body.data as { summary: string; detail: string | null }[])
        .filter((e) => e.summary.startsWith('Subscription'))
        .map((e) => [e.summary, e.detail]),
    ).toEqual([
      ['Subscription ended now', 'Reason: abusive in the forum'],
      ["Subscription set to end at its period's end", 'Reason: moving abroad'],
    ]);
    const listed = await admin(support, '/subscriptions', { filter: { userId: learner.user.id, status: 'canceled' } });
    expect(listed.body.map((r: Row) => r.id)).toEqual([id]);
  });
  it('prices a membership each period beside a payment plan and a one-time price in the simulator', async () => {
    const yearly = await createProduct(db(), {
      name: 'Simulated yearly',
      productType: 'membership',
      billingInterval: 'year',
      trialDays: 14,
      unitAmount: 19900,
    });
    const membership = await admin(support, '/pricing/recurring', {});
    expect(membership.status).toBe(400);
    const answer = await as(support, request(app).get('/api/admin/pricing/recurring')).query({ productId: yearly.id });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      productType: 'membership',
      oneTime: null,
      membership: { trialDays: 14, prices: [{ interval: 'year', perPeriod: 19900, currency: 'usd', monthly: 1658 }] },
      plan: null,
    });

    const course = await createProduct(db(), { name: 'Course in three', unitAmount: 19900 });
    await db()('paymentPlans').insert({
      productId: course.id,
      instalments: 3,
      instalmentAmount: 6900,
      currency: 'usd',
    });
    const plan = await as(finance, request(app).get('/api/admin/pricing/recurring')).query({ productId: course.id });
    expect(plan.body).toMatchObject({
      oneTime: { amount: 19900, currency: 'usd' },
      membership: null,
      plan: { instalments: 3, instalmentAmount: 6900, total: 20700, currency: 'usd', aboveOneTime: 800 },
    });
    const unknown = await as(support, request(app).get('/api/admin/pricing/recurring')).query({
      productId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(404);
  });
});
