import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCoupon, createProduct } from '../../seeds/factories';
import { percentOf } from '../../api/src/commerce/pricing/prices';
import { unusedCredit } from '../../api/src/shared/proration';
import type { Product } from '../../api/src/catalog/models';
import { testApp } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { manualClock, onTheHour } from '../support/clock';
import { useTestDatabase } from '../support/db';

/** Seats added to a team membership are priced before the subscriber confirms, as the provider then bills them. */
describe('a team membership priced before subscribing and before adding seats', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const clock = manualClock(onTheHour());
  let app: ReturnType<typeof testApp>;
  let monthly: Product;

  beforeAll(async () => {
    app = testApp(db(), { clock });
    monthly = await createProduct(db(), {
      name: 'Team pass',
      productType: 'membership',
      billingInterval: 'month',
      unitAmount: 2900,
      currency: 'usd',
    });
  });

  const post = (who: SignedIn, path: string, body?: object) =>
    as(who, request(app).post(`/api/store${path}`)).send(body);
  const quote = (who: SignedIn, id: string, quantity: unknown) =>
    as(who, request(app).get(`/api/store/subscriptions/${id}/seats/quote?quantity=${String(quantity)}`));

  it('quotes the rest of the period for the added seats with the coupon, and is what adding them charges', async () => {
    const owner = await signedIn(db());
    const half = await createCoupon(db(), { percentageDiscount: 0.5 });
    await db()('coupons').where({ id: half.id }).update({ duration: 'forever' });
    // Priced first, nothing started: the coupon's price for both seats, for every period; a wrong code refused.
    const priced0 = await post(owner, '/subscriptions/quote', {
      productId: monthly.id,
      quantity: 2,
      coupon: half.code,
    });
    expect(priced0.status, JSON.stringify(priced0.body)).toBe(200);
    expect(priced0.body.data).toMatchObject({
      interval: 'month',
      amount: 5800,
      coupon: { amount: 2900, percent: 50, periods: null },
    });
    const wrong = await post(owner, '/subscriptions/quote', { productId: monthly.id, coupon: 'NO-SUCH-CODE' });
    expect([wrong.status, wrong.body.code]).toEqual([400, 'coupon-not-found']);
    expect(await db()('subscriptions').where({ productId: monthly.id }).count({ n: '*' })).toEqual([{ n: 0 }]);
    const started = await post(owner, '/subscriptions', { productId: monthly.id, quantity: 2, coupon: half.code });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect((await request(app).post(`${new URL(started.body.data.url).pathname}/pay`)).status).toBe(303);
    const { id } = (await as(owner, request(app).get('/api/store/subscriptions'))).body.data[0] as { id: string };
    const sub = (await db()('subscriptions').where({ id }).first('currentPeriodStart', 'currentPeriodEnd')) as {
      currentPeriodStart: Date;
      currentPeriodEnd: Date;
    };
    const before = clock.now();
    clock.advance(10 * 86_400_000);
    const span = { start: new Date(sub.currentPeriodStart), end: new Date(sub.currentPeriodEnd) };
    const due = unusedCredit(4 * 2900, span, clock.now()) - unusedCredit(2 * 2900, span, clock.now());

    const priced = await quote(owner, id, 2);
    expect(priced.status, JSON.stringify(priced.body)).toBe(200);
    expect(priced.body.data).toMatchObject({
      added: 2,
      dueNow: due - percentOf(due, 5000),
      eachPeriod: 5800,
      currency: 'usd',
    });
    expect((await post(owner, `/subscriptions/${id}/seats`, { quantity: 2 })).status).toBe(200);
    const charged = (await db()('subscriptionPeriods as sp')
      .join('merchantCharges as c', 'c.id', 'sp.merchantChargeId')
      .where('sp.subscriptionId', id)
      .orderBy('sp.periodStart', 'desc')
      .first('c.amount')) as { amount: number };
    expect(charged.amount).toBe(priced.body.data.dueNow);

    // Someone else's subscription, or not a whole number of seats: refused.
    expect((await quote(await signedIn(db()), id, 1)).status).toBe(404);
    expect((await quote(owner, id, 'x')).body.code).toBe('validation-failed');
    expect((await quote(owner, id, 97)).body.code).toBe('validation-failed');
    clock.set(before);
  });
});
