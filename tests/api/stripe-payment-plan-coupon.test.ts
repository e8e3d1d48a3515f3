import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCoupon, createProduct, createRevenueSplit } from '../../seeds/factories';
import { as, signedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { setSchoolTax } from '../support/school-tax';
import { useStripeBilling } from '../support/stripe-billing';

const INSTALMENT = 21_000;
const SEATTLE = { 'cf-ipcountry': 'US', 'cf-region': 'WA' };

/**
 * A course bought in instalments with a coupon through Stripe Billing, through the real SDK against the local stand-in
 * (docs/domain.md §23): each instalment Stripe charges is the one the plan's quote answered, the coupon taken off the
 * instalments its duration covers and the tax on top of what is left, to the cent.
 */
describe('a payment plan with a coupon through Stripe', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const { stripe, app, deliver } = useStripeBilling(db, {
    env: { TRUST_PROXY: 'true', COUNTRY_HEADER: 'cf-ipcountry', REGION_HEADER: 'cf-region' },
  });

  beforeAll(async () => {
    await setSchoolTax(db(), { registrations: [{ country: 'US', region: 'WA' }] });
  });

  it('charges each instalment exactly as quoted: the coupon off the two it covers, tax on top, then the plan ends', async () => {
    const course = await createProduct(db(), { name: 'Course in instalments on Stripe', unitAmount: 3 * INSTALMENT });
    await db()('paymentPlans').insert({
      productId: course.id,
      instalments: 3,
      instalmentAmount: INSTALMENT,
      currency: 'usd',
    });
    await createRevenueSplit(db(), { productId: course.id, type: 'platform', percent: 0.3 });
    const coupon = await createCoupon(db(), { percentageDiscount: 0.35 });
    await db()('coupons').where({ id: coupon.id }).update({ duration: 'repeating', durationPeriods: 2 });
    const learner = await signedIn(db());
    const terms = { productId: course.id, coupon: coupon.code };

    const quoted = await as(learner, request(app()).post('/api/store/payment-plans/quote').set(SEATTLE)).send(terms);
    expect(quoted.status, JSON.stringify(quoted.body)).toBe(200);
    const payments = quoted.body.data.payments as { discount: number; tax: number; charged: number }[];
    // 210.00 less 35 % is 136.50, and Washington's 6.5 % on top: 145.37 (rounded half up), twice; then 223.65.
    expect(payments.map((p) => p.discount)).toEqual([7350, 7350, 0]);
    expect(payments.map((p) => p.charged)).toEqual([14_537, 14_537, 22_365]);

    const started = await as(learner, request(app()).post('/api/store/payment-plans').set(SEATTLE)).send(terms);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const sessionId = new URL(started.body.data.url).pathname.split('/').at(-1)!;
    const { subscription, events } = stripe().billing.subscribe(sessionId);
    await deliver(events);
    await deliver(stripe().billing.takeEvents());
    for (const _ of [2, 3]) {
      await deliver(stripe().billing.renew(subscription, 'paid'));
      await deliver(stripe().billing.takeEvents());
    }
    // The last instalment paid, Stripe bills nothing more.
    const nextRenewal = stripe().billing.renew(subscription, 'paid');
    expect(nextRenewal.map((e) => e.type)).toEqual(['customer.subscription.deleted']);

    const [ours] = (await as(learner, request(app()).get('/api/store/subscriptions'))).body.data as { id: string }[];
    const charged = await db()('subscriptionPeriods as sp')
      .join('merchantCharges as c', 'c.id', 'sp.merchantChargeId')
      .where('sp.subscriptionId', ours!.id)
      .orderBy('sp.periodStart')
      .select('c.amount', 'c.taxAmount');
    expect(charged).toEqual(payments.map((p) => ({ amount: p.charged, taxAmount: p.tax })));
    const purchase = await db()('purchases').where({ userId: learner.user.id, productId: course.id }).first();
    expect(purchase).toMatchObject({ status: 'Valid', paidInFull: true, totalAmount: quoted.body.data.total });
    expect(await db()('coupons').where({ id: coupon.id }).first('usedCount')).toEqual({ usedCount: 1 });
  });
});
