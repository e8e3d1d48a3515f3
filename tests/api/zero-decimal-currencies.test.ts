import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCoupon } from '../../seeds/factories';
import { testApp, testConfig } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { sessionOfCheckout } from '../support/checkout';
import { useTestDatabase } from '../support/db';
import { deliverSigned, standInEnv, startStripeStandIn, type StandIn } from '../support/stripe-stand-in';

/**
 * Amounts are integers in the currency's minor unit: whole yen for jpy. A ¥4,000 course is 4000 from the console to
 * Stripe, on the receipt and in the finance export; currencies that Stripe counts in another unit are refused where
 * prices are set.
 */
describe('zero-decimal currencies (JPY) end to end, through Stripe', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let stripe: StandIn;
  let app: ReturnType<typeof testApp>;
  let admin: SignedIn;
  let finance: SignedIn;

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    app = testApp(db(), { config: testConfig(standInEnv(stripe)) });
    admin = await signedIn(db(), ['admin']);
    finance = await signedIn(db(), ['finance']);
  });
  afterAll(() => stripe?.close());

  const newProduct = (name: string, currency: string, unitAmount: number) =>
    as(admin, request(app).post('/api/admin/products')).send({ name, unitAmount, currency, status: 'active' });

  it('refuses prices in currencies Stripe counts in another unit, and in codes that are no currency', async () => {
    for (const currency of ['isk', 'huf', 'kwd', 'xyz']) {
      const refused = await newProduct(`Priced in ${currency}`, currency, 4000);
      expect(refused.status, currency).toBe(400);
      expect(refused.body.code).toBe('validation-failed');
      expect(refused.body.errors.currency).toMatch(currency === 'xyz' ? /ISO 4217/ : /counted differently/);
    }
    const product = (await newProduct('Priced in yen', 'jpy', 4000)).body;
    const price = await as(admin, request(app).post('/api/admin/prices')).send({
      productId: product.id,
      unitAmount: 5000,
      currency: 'isk',
    });
    expect(price.status).toBe(400);
    expect(price.body.errors.currency).toMatch(/counted differently/);
    expect(await db()('prices').where({ productId: product.id }).pluck('currency')).toEqual(['jpy']);
  });

  it('charges ¥4,000 at Stripe for a ¥4,000 course and shows ¥4,000 on the receipt and in the export', async () => {
    const created = await newProduct('Yen Course', 'jpy', 4000);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const productId = created.body.id as string;
    await createCoupon(db(), { code: 'YEN25', percentageDiscount: 0.25, restrictedToProductId: productId });

    const quote = await request(app).get(`/api/store/products/${productId}/quote`).query({ coupon: 'YEN25' });
    expect(quote.body).toMatchObject({ currency: 'jpy', quote: { fullPrice: 4000, finalPrice: 3000 } });

    const started = await request(app)
      .post('/api/store/checkout')
      .send({ productId, coupon: 'YEN25', email: 'yen-buyer@example.com' });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const sessionId = await sessionOfCheckout(db(), started.body.checkoutId);
    // What Stripe was asked for: the price in whole yen, ¥1,000 off, ¥3,000 to pay.
    const session = stripe.objects.get(sessionId)!;
    expect(session).toMatchObject({ currency: 'jpy', amount_subtotal: 4000, amount_total: 3000 });
    const merchantPrice = await db()('merchantPrices as mp')
      .join('prices as p', 'p.id', 'mp.priceId')
      .where('p.productId', productId)
      .first('mp.identifier');
    expect(stripe.objects.get(merchantPrice.identifier)).toMatchObject({ unit_amount: 4000, currency: 'jpy' });
    const { coupon } = (session.discounts as { coupon: string }[])[0]!;
    expect(stripe.objects.get(coupon)).toMatchObject({ amount_off: 1000, currency: 'jpy' });

    expect((await deliverSigned(app, stripe.pay(sessionId))).status).toBe(200);
    const thanks = (await request(app).get(`/api/store/checkouts/${started.body.checkoutId}`)).body;
    expect(thanks).toMatchObject({ status: 'fulfilled', receipt: { amount: 3000, currency: 'jpy' } });
    const charge = await db()('merchantCharges as c')
      .join('purchases as p', 'p.merchantChargeId', 'c.id')
      .where('p.id', thanks.purchaseId)
      .first('c.amount', 'c.currency', 'c.identifier');
    expect(charge).toMatchObject({ amount: 3000, currency: 'jpy' });

    const receipt = await db()('outboxEmails').where({ toAddress: 'yen-buyer@example.com', kind: 'receipt' }).first();
    expect(receipt.textBody).toContain('(¥3,000)');
    expect(receipt.textBody).not.toMatch(/¥30\b/);

    const day = new Date().toISOString().slice(0, 10);
    const csv = await as(finance, request(app).get('/api/admin/exports/charges.csv').query({ from: day, to: day }))
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => done(null, text));
      });
    const row = (csv.body as string).split('\n').find((line) => line.includes(charge.identifier))!;
    // Gross 3000 in jpy (no tax): ¥3,000 in the currency's minor unit (whole yen), list price ¥4,000, ¥1,000 off.
    expect(row).toMatch(/,3000,0,\d+,\d+,0,0,jpy,/);
    expect(row).toMatch(/,YEN25,1,4000,0,1000\r?$/);
  });

  it("records Stripe's fee in yen when the account settles in dollars (Stripe states it in cents)", async () => {
    const productId = (await newProduct('Yen Course Settled In Dollars', 'jpy', 3000)).body.id as string;
    const started = await request(app).post('/api/store/checkout').send({ productId, email: 'yen-usd@example.com' });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const sessionId = await sessionOfCheckout(db(), started.body.checkoutId);
    // ¥3,000 at $0.0067 a yen is $20.10; the stand-in's fee is 2.9 % + 30 cents: 88 cents, which is ¥131.
    const completed = stripe.pay(sessionId, { settleIn: { currency: 'usd', rate: 0.0067 } });
    expect((await deliverSigned(app, completed)).status).toBe(200);
    const thanks = (await request(app).get(`/api/store/checkouts/${started.body.checkoutId}`)).body;
    const charge = await db()('merchantCharges as c')
      .join('purchases as p', 'p.merchantChargeId', 'c.id')
      .where('p.id', thanks.purchaseId)
      .first('c.amount', 'c.fee', 'c.net', 'c.currency');
    expect(charge).toEqual({ amount: 3000, fee: 131, net: 2869, currency: 'jpy' });
  });
});
