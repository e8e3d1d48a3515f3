import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCoupon, createProduct } from '../../seeds/factories';
import { percentOf } from '../../api/src/commerce/pricing/prices';
import { pppForCountry } from '../../api/src/commerce/pricing/ppp';
import { taxOnTop } from '../../api/src/tax/amounts';
import type { Product } from '../../api/src/catalog/models';
import { testApp, testConfig } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { manualClock, onTheHour } from '../support/clock';
import { useTestDatabase } from '../support/db';
import { setSchoolTax } from '../support/school-tax';

/**
 * The pricing simulator prices a membership's periods and a payment plan's instalments for the simulated buyer as
 * subscribing and buying the plan do (docs/domain.md §22, §23): the coupon for its periods, the regional price, tax.
 */
describe('pricing simulator: coupons and regional prices on memberships and payment plans', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const clock = manualClock(onTheHour());
  const config = testConfig({ TRUST_PROXY: 'true', COUNTRY_HEADER: 'cf-ipcountry', REGION_HEADER: 'cf-region' });
  let app: ReturnType<typeof testApp>;
  let support: SignedIn;
  let membership: Product;
  let course: Product;

  beforeAll(async () => {
    app = testApp(db(), { clock, config });
    await setSchoolTax(db(), { registrations: [{ country: 'US', region: 'WA' }] });
    support = await signedIn(db(), ['support']);
    membership = await createProduct(db(), {
      name: 'Simulated membership',
      productType: 'membership',
      billingInterval: 'month',
      unitAmount: 2900,
    });
    course = await createProduct(db(), { name: 'Simulated plan', unitAmount: 60000 });
    await db()('paymentPlans').insert({
      productId: course.id,
      instalments: 3,
      instalmentAmount: 21000,
      currency: 'usd',
    });
  });

  const recurring = (query: Record<string, string>) =>
    as(support, request(app).get('/api/admin/pricing/recurring')).query(query);
  const coupon = async (percentageDiscount: number, duration: object) => {
    const made = await createCoupon(db(), { percentageDiscount });
    await db()('coupons').where({ id: made.id }).update(duration);
    return made.code!;
  };

  it("prices a membership's period with a coupon for its periods, or at the regional price", async () => {
    const code = await coupon(0.5, { duration: 'repeating', durationPeriods: 3 });
    const couponed = await recurring({ productId: membership.id, coupon: code, country: 'US' });
    expect(couponed.status, JSON.stringify(couponed.body)).toBe(200);
    expect(couponed.body.couponProblem).toBeNull();
    expect(couponed.body.membership.prices[0]).toMatchObject({
      perPeriod: 2900,
      priced: { amount: 2900, pppPercent: null, coupon: { code, amount: 1450, percent: 50, periods: 3 } },
    });
    const bp = pppForCountry('IN')!;
    const regional = await recurring({ productId: membership.id, country: 'IN', ppp: 'true' });
    expect(regional.body.membership.prices[0].priced).toMatchObject({
      amount: 2900 - percentOf(2900, bp),
      pppPercent: bp / 100,
      coupon: null,
    });
    // Not asked for: the list price.
    const plain = await recurring({ productId: membership.id, country: 'IN' });
    expect(plain.body.membership.prices[0].priced).toMatchObject({ amount: 2900, pppPercent: null, coupon: null });
  });

  it("prices a plan's instalments as buying it would charge them, and says why a coupon is refused", async () => {
    const code = await coupon(0.1, { duration: 'once' });
    const answer = await recurring({ productId: course.id, coupon: code, country: 'US' });
    expect(answer.status).toBe(200);
    expect(answer.body.plan.quote).toMatchObject({
      coupon: { code, percent: 10, periods: 1 },
      payments: [
        { amount: 21000, discount: 2100, charged: 18900 },
        { amount: 21000, discount: 0, charged: 21000 },
        { amount: 21000, discount: 0, charged: 21000 },
      ],
    });
    // The store's quote for the same buyer answers the same instalments.
    const store = await request(app)
      .post('/api/store/payment-plans/quote')
      .set({ 'cf-ipcountry': 'US', 'cf-region': 'WA' })
      .send({ productId: course.id, coupon: code });
    expect(store.body.data.payments[0]).toEqual({
      amount: 21000,
      discount: 2100,
      tax: taxOnTop(18900, 650),
      charged: 18900 + taxOnTop(18900, 650),
    });
    const regional = await recurring({ productId: course.id, country: 'BR', ppp: 'true' });
    const bp = pppForCountry('BR')!;
    expect(regional.body.plan.quote).toMatchObject({ pppPercent: bp / 100, total: 3 * (21000 - percentOf(21000, bp)) });

    const refused = await recurring({ productId: course.id, coupon: 'NOT-A-CODE', country: 'US' });
    expect(refused.status).toBe(200);
    expect(refused.body.couponProblem).toBe('coupon-not-found');
    expect(refused.body.plan.quote).toMatchObject({ coupon: null, total: 3 * 21000 });
  });
});
