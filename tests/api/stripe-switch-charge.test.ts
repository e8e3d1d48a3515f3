import type Stripe from 'stripe';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { stripeClient } from '../../api/src/payments/stripe-provider';
import { createProduct, createRevenueSplit } from '../../seeds/factories';
import { as, signedIn, type SignedIn } from '../support/auth';
import { manualClock } from '../support/clock';
import { useTestDatabase } from '../support/db';
import { standInEnv } from '../support/stripe-stand-in';
import { useStripeBilling } from '../support/stripe-billing';

const fromSeconds = (seconds: number) => new Date(seconds * 1000);

/**
 * A switch monthly → yearly billed now at Stripe, through the real SDK against the local stand-in (docs/domain.md
 * §22, "what is quoted is what is charged"): Stripe is asked to prorate at the instant the switch was quoted, its
 * invoice is previewed first, and a change Stripe would bill otherwise than quoted is refused (`quote-changed`) with
 * nothing changed there or here.
 */
describe('a switch billed now at Stripe charges what was quoted', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const clock = manualClock();
  const { stripe, app, deliver, stripeSub, itemOf } = useStripeBilling(db, { clock });
  let both: Awaited<ReturnType<typeof createProduct>>;

  beforeAll(async () => {
    both = await createProduct(db(), {
      name: 'Monthly or yearly, switched on Stripe',
      productType: 'membership',
      billingInterval: 'month',
      grantsWholeCatalog: true,
      unitAmount: 2900,
      yearlyAmount: 29_000,
    });
    await createRevenueSplit(db(), { productId: both.id, type: 'platform', percent: 0.3 });
  });

  const store = (who: SignedIn, method: 'get' | 'post', path: string, body?: object) =>
    as(who, request(app())[method](`/api/store${path}`)).send(body);
  const charges = async (userId: string) =>
    (await db()('merchantCharges').where({ userId }).orderBy('createdAt').select('amount')).map(
      (c: { amount: number }) => c.amount,
    );
  const calls = (template: string) => stripe().calls.get(template) ?? 0;

  /**
   * Subscribes monthly on Stripe's Checkout page, then moves both clocks (ours and the subscription's at Stripe) to
   * the middle of the month, where the unused half is credited to the cent: our id, Stripe's, and the quote's instant.
   */
  async function halfwayThroughMonth(who: SignedIn) {
    clock.set(new Date());
    const started = await store(who, 'post', '/subscriptions', { productId: both.id, interval: 'month' });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const sessionId = new URL(started.body.data.url).pathname.split('/').at(-1)!;
    const { subscription, events } = stripe().billing.subscribe(sessionId);
    await deliver(events);
    const id = (await store(who, 'get', '/subscriptions')).body.data[0].id as string;
    const { current_period_start: start, current_period_end: end } = itemOf(subscription);
    const half = (end - start) / 2; // whole days: an even number of seconds
    stripe().billing.advance(subscription, half);
    clock.set(fromSeconds(start + half));
    return { id, subscription, at: start + half };
  }

  it('previews the change prorated at the quote’s instant and bills exactly the quoted amount', async () => {
    const learner = await signedIn(db());
    const { id, subscription, at } = await halfwayThroughMonth(learner);
    const offered = await store(learner, 'get', `/subscriptions/${id}/billing`);
    // Half of 29.00 credited: 290.00 − 14.50.
    expect(offered.body.data.switch).toMatchObject({ interval: 'year', credit: 1450, dueNow: 27_550, startsNow: true });
    const previews = calls('POST /v1/invoices/create_preview');

    const switched = await store(learner, 'post', `/subscriptions/${id}/switch`, { interval: 'year', dueNow: 27_550 });
    expect(switched.status, JSON.stringify(switched.body)).toBe(200);
    expect(calls('POST /v1/invoices/create_preview')).toBe(previews + 1);
    const invoice = stripe().objects.get(stripeSub(subscription).latest_invoice as string) as unknown as Stripe.Invoice;
    expect(invoice).toMatchObject({ billing_reason: 'subscription_update', amount_paid: 27_550 });
    // Prorated at the instant quoted: the credit's line starts there.
    expect(invoice.lines.data.map((line) => [line.amount, line.period.start])).toEqual([
      [-1450, at],
      [29_000, at],
    ]);
    await deliver(stripe().billing.takeEvents());
    expect(await charges(learner.user.id)).toEqual([2900, 27_550]);
    expect(itemOf(subscription).price).toMatchObject({ unit_amount: 29_000, recurring: { interval: 'year' } });
  });

  it('refuses with quote-changed, nothing changed, once Stripe’s period moved on (its renewal got there first)', async () => {
    const learner = await signedIn(db());
    const { id, subscription } = await halfwayThroughMonth(learner);
    const { dueNow } = (await store(learner, 'get', `/subscriptions/${id}/billing`)).body.data.switch;
    // Stripe renews the month; its events have not reached us yet, so our quote still credits the month before.
    const renewal = stripe().billing.renew(subscription, 'paid');
    const [updates, previews] = [calls('POST /v1/subscriptions/:id'), calls('POST /v1/invoices/create_preview')];

    const switched = await store(learner, 'post', `/subscriptions/${id}/switch`, { interval: 'year', dueNow });
    expect(switched.status, JSON.stringify(switched.body)).toBe(409);
    expect(switched.body.code).toBe('quote-changed');
    expect([calls('POST /v1/subscriptions/:id'), calls('POST /v1/invoices/create_preview')]).toEqual([
      updates,
      previews,
    ]);
    expect(itemOf(subscription).price).toMatchObject({ unit_amount: 2900, recurring: { interval: 'month' } });
    expect(stripe().billing.takeEvents()).toEqual([]);
    await deliver(renewal);
    expect(await charges(learner.user.id)).toEqual([2900, 2900]);
    expect((await db()('subscriptions').where({ id }).first('priceId')).priceId).toBe(
      both.prices.find((p) => p.billingInterval === 'month')!.id,
    );
  });

  it('refuses with quote-changed, nothing changed, when Stripe’s preview bills otherwise than quoted', async () => {
    const learner = await signedIn(db());
    const { id, subscription } = await halfwayThroughMonth(learner);
    // A coupon applied in Stripe's dashboard, which our quote knows nothing of: Stripe would bill less.
    const dashboard = stripeClient({ ...standInEnv(stripe()), STRIPE_TIMEOUT_MS: 10_000 });
    const coupon = await dashboard.coupons.create({ percent_off: 10, duration: 'forever' });
    Object.assign(stripe().objects.get(subscription)!, { discounts: [coupon.id] });
    const updates = calls('POST /v1/subscriptions/:id');

    const switched = await store(learner, 'post', `/subscriptions/${id}/switch`, { interval: 'year', dueNow: 27_550 });
    expect(switched.status, JSON.stringify(switched.body)).toBe(409);
    expect(switched.body.code).toBe('quote-changed');
    expect(calls('POST /v1/subscriptions/:id')).toBe(updates);
    expect(itemOf(subscription).price).toMatchObject({ unit_amount: 2900, recurring: { interval: 'month' } });
    expect(stripe().billing.takeEvents()).toEqual([]);
    expect(await charges(learner.user.id)).toEqual([2900]);
  });
});
