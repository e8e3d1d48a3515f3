import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCoupon, createProduct } from '../../seeds/factories';
import { percentOf } from '../../api/src/commerce/pricing/prices';
import { pppForCountry } from '../../api/src/commerce/pricing/ppp';
import { taxOnTop } from '../../api/src/tax/amounts';
import { unusedCredit } from '../../api/src/shared/proration';
import { periodEnd } from '../../api/src/payments/test-provider-subscriptions';
import { testApp, testConfig } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { manualClock, onTheHour } from '../support/clock';
import { useTestDatabase } from '../support/db';
import { setSchoolTax, TEST_RATES } from '../support/school-tax';

const DAY = 86_400_000;

/**
 * A switch between monthly and yearly (docs/domain.md §22) charges exactly what its confirmation quoted: the prorated
 * difference less the subscription's coupon, then tax inside or on top, at its regional price; a stale quote is
 * refused before anything moves, and a switch racing the renewal is decided under the subscription's lock before
 * the provider charges. The school is established in Germany (OSS), registered in Washington State; euro prices
 * include tax.
 */
describe('a switch of interval charged as quoted', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const start = onTheHour();
  const clock = manualClock(start);
  const config = testConfig({ TRUST_PROXY: 'true', COUNTRY_HEADER: 'cf-ipcountry', REGION_HEADER: 'cf-region' });
  let app: ReturnType<typeof testApp>;

  beforeAll(async () => {
    app = testApp(db(), { clock, config });
    await setSchoolTax(db(), {
      registrations: [{ country: 'US', region: 'WA' }],
      rates: TEST_RATES.filter((rate) => ['DE', 'FR'].includes(rate.country) || rate.region === 'WA'),
    });
  });

  const membership = (name: string, unitAmount: number, yearlyAmount: number, currency = 'usd') =>
    createProduct(db(), {
      name,
      productType: 'membership',
      billingInterval: 'month',
      unitAmount,
      yearlyAmount,
      currency,
    });
  const post = (who: SignedIn, path: string, body: object, from: Record<string, string> = {}) =>
    as(who, request(app).post(`/api/store${path}`).set(from)).send(body);
  const billing = async (who: SignedIn, id: string) =>
    (await as(who, request(app).get(`/api/store/subscriptions/${id}/billing`))).body.data;

  async function subscribe(who: SignedIn, body: object, from: Record<string, string>): Promise<string> {
    const started = await post(who, '/subscriptions', body, from);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect((await request(app).post(`${new URL(started.body.data.url).pathname}/pay`)).status).toBe(303);
    return ((await as(who, request(app).get('/api/store/subscriptions'))).body.data as { id: string }[])[0]!.id;
  }
  /** Each paid period's charge and invoice, oldest first. */
  const paid = (subscriptionId: string) =>
    db()('subscriptionPeriods as sp')
      .join('merchantCharges as c', 'c.id', 'sp.merchantChargeId')
      .join('invoices as i', 'i.id', 'sp.invoiceId')
      .where({ 'sp.subscriptionId': subscriptionId, 'sp.outcome': 'paid' })
      .orderBy('sp.periodStart')
      .select('sp.periodStart', 'c.amount', 'c.taxAmount', 'i.total', 'i.taxAmount as invoiceTax');
  /** What the provider charged the subscription, every paid invoice of it. */
  const providerCharges = (subscriptionId: string) =>
    db()('testProviderSubscriptionInvoices as i')
      .join('testProviderSubscriptions as s', 's.identifier', 'i.subscriptionIdentifier')
      .where({ 's.reference': subscriptionId, 'i.status': 'paid' })
      .orderBy('i.periodStart')
      .select('i.amount', 'i.periodStart');

  /** Quotes the switch to yearly ten days in, confirms it, and checks the charge and its invoice are the quote. */
  async function switchAsQuoted(who: SignedIn, id: string) {
    const quote = (await billing(who, id)).switch;
    const switched = await post(who, `/subscriptions/${id}/switch`, { interval: 'year', dueNow: quote.dueNow });
    expect(switched.status, JSON.stringify(switched.body)).toBe(200);
    const last = (await paid(id)).at(-1)!;
    expect([last.amount, last.total, last.invoiceTax]).toEqual([quote.dueNow, quote.dueNow, quote.tax?.amount ?? 0]);
    expect((await providerCharges(id)).at(-1)!.amount).toBe(quote.dueNow);
    return quote;
  }

  it('takes the coupon off the prorated difference and adds the tax on top, as the provider charges it', async () => {
    clock.set(start);
    const pass = await membership('Taxed pass', 3000, 30000);
    const coupon = await createCoupon(db(), { percentageDiscount: 0.2 });
    await db()('coupons').where({ id: coupon.id }).update({ duration: 'forever' });
    const learner = await signedIn(db());
    const id = await subscribe(
      learner,
      { productId: pass.id, coupon: coupon.code },
      { 'cf-ipcountry': 'US', 'cf-region': 'WA' },
    );
    clock.advance(10 * DAY);
    const credit = unusedCredit(3000, { start, end: periodEnd(start, 'month') }, clock.now());
    const difference = 30000 - credit;
    const base = difference - percentOf(difference, 2000);
    const quote = await switchAsQuoted(learner, id);
    expect(quote).toMatchObject({
      amount: 30000,
      credit,
      discount: percentOf(difference, 2000),
      tax: { amount: taxOnTop(base, 650), inclusive: false },
      dueNow: base + taxOnTop(base, 650),
      startsNow: true,
    });
    clock.set(start);
  });

  it("counts a switch's new period as one of the coupon's, on the Billing page as the provider does", async () => {
    clock.set(start);
    const pass = await membership('Coupon periods pass', 3000, 30000);
    const twice = await createCoupon(db(), { percentageDiscount: 0.5 });
    await db()('coupons').where({ id: twice.id }).update({ duration: 'repeating', durationPeriods: 2 });
    const learner = await signedIn(db());
    const id = await subscribe(learner, { productId: pass.id, coupon: twice.code }, {});
    clock.advance(10 * DAY);
    const quote = await switchAsQuoted(learner, id);
    expect(quote.discount).toBeGreaterThan(0);
    // Both of the coupon's periods are used: the year after is billed at the full price, as the Billing page says.
    expect((await billing(learner, id)).nextCharge.amount).toBe(30000);
    expect((await request(app).post(`/test-provider/subscriptions/${id}/renew`).send({ outcome: 'paid' })).status).toBe(
      200,
    );
    expect((await paid(id)).at(-1)!.amount).toBe(30000);
    clock.set(start);
  });

  it('keeps the tax inside a euro price, and charges a reverse-charged business no tax', async () => {
    clock.set(start);
    const euro = await membership('Euro pass', 1190, 11900, 'eur');
    const german = await signedIn(db());
    const deId = await subscribe(german, { productId: euro.id }, { 'cf-ipcountry': 'DE' });
    const business = await signedIn(db());
    const frId = await subscribe(
      business,
      { productId: euro.id, billing: { country: 'FR', vatId: 'FR12345678901' } },
      { 'cf-ipcountry': 'FR' },
    );
    clock.advance(7 * DAY);
    const credit = unusedCredit(1190, { start, end: periodEnd(start, 'month') }, clock.now());
    const inside = await switchAsQuoted(german, deId);
    expect(inside).toMatchObject({ dueNow: 11900 - credit, tax: { inclusive: true } });
    expect(inside.tax.amount).toBeGreaterThan(0);
    const reverse = await switchAsQuoted(business, frId);
    expect(reverse).toMatchObject({ dueNow: 11900 - credit, tax: null });
    clock.set(start);
  });

  it('keeps the regional price the subscription was sold at through the switch', async () => {
    clock.set(start);
    const bp = pppForCountry('IN')!;
    const pass = await membership('Regional pass', 3000, 30000);
    const learner = await signedIn(db());
    const id = await subscribe(learner, { productId: pass.id, ppp: true }, { 'cf-ipcountry': 'IN' });
    clock.advance(3 * DAY);
    const monthly = 3000 - percentOf(3000, bp);
    const yearly = 30000 - percentOf(30000, bp);
    const credit = unusedCredit(monthly, { start, end: periodEnd(start, 'month') }, clock.now());
    expect(await switchAsQuoted(learner, id)).toMatchObject({ amount: yearly, credit, dueNow: yearly - credit });
    clock.set(start);
  });

  it('refuses a stale quote with quote-changed and changes nothing, then switches at the new quote', async () => {
    clock.set(start);
    const pass = await membership('Stale pass', 3000, 30000);
    const learner = await signedIn(db());
    const id = await subscribe(learner, { productId: pass.id }, { 'cf-ipcountry': 'US', 'cf-region': 'WA' });
    clock.advance(5 * DAY);
    const stale = (await billing(learner, id)).switch;
    clock.advance(DAY);
    const before = await db()('subscriptions').where({ id }).first();
    const refused = await post(learner, `/subscriptions/${id}/switch`, { interval: 'year', dueNow: stale.dueNow });
    expect([refused.status, refused.body.code]).toEqual([409, 'quote-changed']);
    expect(await db()('subscriptions').where({ id }).first()).toEqual(before);
    expect(await paid(id)).toHaveLength(1);
    expect(await providerCharges(id)).toHaveLength(1);
    expect(await db()('testProviderSubscriptions').where({ reference: id }).first('interval')).toEqual({
      interval: 'month',
    });
    const fresh = await switchAsQuoted(learner, id);
    expect(fresh.dueNow).toBeGreaterThan(stale.dueNow);
    clock.set(start);
  });

  it('decides a switch racing the renewal at the instant its period begins: switched or refused, one charge a period', async () => {
    const pass = await membership('Racing pass', 3000, 30000);
    for (let round = 0; round < 6; round++) {
      clock.set(start);
      const learner = await signedIn(db());
      const id = await subscribe(learner, { productId: pass.id }, {});
      // The switch is quoted at the instant the month ends, the renewal and the switch asked at once.
      clock.set(periodEnd(start, 'month'));
      const quote = (await billing(learner, id)).switch;
      const renew = () => request(app).post(`/test-provider/subscriptions/${id}/renew`).send({ outcome: 'paid' });
      const switchNow = () => post(learner, `/subscriptions/${id}/switch`, { interval: 'year', dueNow: quote.dueNow });
      // Either asked first, in turn.
      const [renewed, switched] =
        round % 2
          ? await Promise.all([renew(), switchNow()])
          : await Promise.all([switchNow(), renew()]).then(([s, r]) => [r, s] as const);
      expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
      expect([200, 409], JSON.stringify(switched.body)).toContain(switched.status);
      if (switched.status === 409) expect(['quote-changed', 'subscription-renewing']).toContain(switched.body.code);
      const periods = await paid(id);
      const charged = await providerCharges(id);
      // Every charge the provider made is a recorded period, each period charged once.
      expect(charged.map((c) => c.amount)).toEqual(periods.map((p) => p.amount));
      expect(new Set(periods.map((p) => new Date(p.periodStart).getTime())).size).toBe(periods.length);
      expect(await db()('merchantCharges').where({ userId: learner.user.id })).toHaveLength(periods.length);
      // A refused switch charged nothing: the month and its renewal only.
      if (switched.status === 409) expect(charged.map((c) => c.amount)).toEqual([3000, 3000]);
      else expect(charged.map((c) => c.amount)).toContain(quote.dueNow);
    }

    // Quoted after the renewal, at that same instant: its charge would start the period just paid again.
    clock.set(start);
    const learner = await signedIn(db());
    const id = await subscribe(learner, { productId: pass.id }, {});
    clock.set(periodEnd(start, 'month'));
    expect((await request(app).post(`/test-provider/subscriptions/${id}/renew`).send({ outcome: 'paid' })).status).toBe(
      200,
    );
    const quote = (await billing(learner, id)).switch;
    const refused = await post(learner, `/subscriptions/${id}/switch`, { interval: 'year', dueNow: quote.dueNow });
    expect([refused.status, refused.body.code]).toEqual([409, 'subscription-renewing']);
    expect((await providerCharges(id)).map((c) => c.amount)).toEqual([3000, 3000]);
    clock.set(start);
  });
});
