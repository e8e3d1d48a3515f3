import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { Coupon, Product, Purchase } from '../support/models';
import { OutboxEmail } from '../../api/src/mail/models';
import { testProviderFee } from '../../api/src/payments/test-provider';
import { createCoupon, createProduct } from '../../seeds/factories';
import { runSeeds } from '../../seeds/run';
import { testApp, testConfig } from '../support/app';
import { as, signedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { GRANTING_STATUSES } from '../../api/src/shared/purchase-status';

describe('checkout with the built-in test provider', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let fundamentals: Product;
  const app = () => testApp(db());

  beforeAll(async () => {
    await runSeeds(db(), { demo: true });
    // Buyers here are US visitors who name no state: tax where it depends on one is checkout-tax.test.ts's.
    await db()('taxRegistrations').where({ country: 'US' }).delete();
    fundamentals = (await Product.query(db()).findOne({ key: 'typescript-fundamentals' }))!;
  });

  const checkout = (body: object) => request(app()).post('/api/store/checkout').send(body);
  /** The buyer on the provider's page: open it, then press a button (the form posts, the provider redirects). */
  async function payAt(url: string, button: 'pay' | 'cancel' = 'pay'): Promise<string> {
    const { pathname } = new URL(url);
    const page = await request(app()).get(pathname);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<button class="pay" type="submit">Pay</button>');
    const pressed = await request(app()).post(`${pathname}/${button}`);
    expect(pressed.status).toBe(303);
    return pressed.headers.location!;
  }
  const status = (checkoutId: string) => request(app()).get(`/api/store/checkouts/${checkoutId}`);

  it('sells a course: pay at the provider, then the thank-you page fulfils it with every record', async () => {
    const created = await checkout({ productId: fundamentals.id, coupon: 'WELCOME10', email: 'New.Buyer@Example.com' });
    expect(created.status).toBe(201);
    const { checkoutId, url } = created.body;
    expect((await status(checkoutId)).body).toEqual({ status: 'open', purchaseId: null, team: null, receipt: null });

    const back = await payAt(url);
    expect(back).toBe(`http://localhost:3000/thanks?checkout=${checkoutId}`);
    const done = await status(checkoutId);
    expect(done.body.status).toBe('fulfilled');

    const purchase = (await Purchase.query(db())
      .findById(done.body.purchaseId)
      .withGraphFetched('[user, merchantCharge, merchantSession]'))!;
    // The sale (20 %) beats WELCOME10 (10 %): $49.00 → $39.20.
    expect(purchase).toMatchObject({ status: 'Valid', totalAmount: 3920, country: 'US', productId: fundamentals.id });
    expect((purchase as unknown as { user: { email: string } }).user.email).toBe('new.buyer@example.com');
    const charge = (
      purchase as unknown as {
        merchantCharge: { amount: number; fee: number; net: number; merchantCustomerId: string };
      }
    ).merchantCharge;
    expect(charge).toMatchObject({ amount: 3920, fee: testProviderFee(3920), net: 3920 - testProviderFee(3920) });
    expect(charge.merchantCustomerId).toBeTruthy();
    const sale = await Coupon.query(db()).findOne({ default: true });
    expect(sale?.usedCount).toBe(1);
    const receipt = await OutboxEmail.query(db()).findOne({ toAddress: 'new.buyer@example.com', kind: 'receipt' });
    // The receipt links the invoice issued with the charge.
    const invoice = await db()('invoices')
      .where({ merchantChargeId: purchase.merchantChargeId, kind: 'invoice' })
      .first('id');
    expect(receipt?.textBody).toContain(`/invoices/${invoice.id}`);
  });

  it("lists a buyer's purchases and shows their invoice, and nobody else's", async () => {
    const buyer = await signedIn(db());
    const { checkoutId, url } = (
      await as(buyer, request(app()).post('/api/store/checkout')).send({ productId: fundamentals.id })
    ).body;
    await payAt(url);
    await status(checkoutId);
    const mine = await as(buyer, request(app()).get('/api/store/purchases'));
    expect(mine.body.data).toEqual([
      expect.objectContaining({
        product: expect.objectContaining({ name: 'TypeScript Fundamentals' }),
        status: 'Valid',
        totalAmount: 3920,
        team: null,
        seat: false,
        courses: [expect.objectContaining({ title: 'TypeScript Fundamentals' })],
      }),
    ]);
    const invoiceId = mine.body.data[0].invoiceId;
    const invoice = await as(buyer, request(app()).get(`/api/store/invoices/${invoiceId}`));
    expect(invoice.body).toMatchObject({
      kind: 'invoice',
      buyer: { email: buyer.user.email },
      lines: [
        { kind: 'item', description: 'TypeScript Fundamentals', quantity: 1, unitAmount: 4900, amount: 4900 },
        { kind: 'discount', description: 'Sale (20 %)', amount: -980 },
      ],
      subtotal: 4900,
      discount: 980,
      total: 3920,
      refunded: 0,
      currency: 'usd',
    });
    const stranger = await signedIn(db());
    expect((await as(stranger, request(app()).get(`/api/store/invoices/${invoiceId}`))).status).toBe(404);
    expect((await request(app()).get('/api/store/purchases')).status).toBe(401);
  });

  it('fulfils exactly once when asked ten times at once', async () => {
    const { checkoutId, url } = (await checkout({ productId: fundamentals.id, email: 'racer@example.com' })).body;
    await payAt(url);
    const answers = await Promise.all(Array.from({ length: 10 }, () => status(checkoutId)));
    const purchaseIds = new Set(answers.map((a) => a.body.purchaseId));
    expect(answers.every((a) => a.status === 200 && a.body.status === 'fulfilled')).toBe(true);
    expect(purchaseIds.size).toBe(1);
    const buyer = await db()('users').where({ email: 'racer@example.com' }).first();
    expect(await Purchase.query(db()).where({ userId: buyer.id }).resultSize()).toBe(1);
    expect(await db()('merchantCharges').where({ userId: buyer.id }).count({ n: '*' }).first()).toEqual({ n: 1 });
    expect(await OutboxEmail.query(db()).where({ toAddress: 'racer@example.com', kind: 'receipt' }).resultSize()).toBe(
      1,
    );
  });

  it('records nothing for a canceled payment', async () => {
    const { checkoutId, url } = (await checkout({ productId: fundamentals.id, email: 'changed.mind@example.com' }))
      .body;
    const back = await payAt(url, 'cancel');
    expect(back).toContain(`/products/${fundamentals.slug}?canceled=1`);
    expect((await status(checkoutId)).body).toEqual({
      status: 'canceled',
      purchaseId: null,
      team: null,
      receipt: null,
    });
    expect(await db()('users').where({ email: 'changed.mind@example.com' }).first()).toBeUndefined();
  });

  it("records the buyer's country, city, region and address from the trusted proxy", async () => {
    const behindProxy = testApp(db(), {
      config: testConfig({
        TRUST_PROXY: 'true',
        COUNTRY_HEADER: 'cf-ipcountry',
        CITY_HEADER: 'cf-ipcity',
        REGION_HEADER: 'cf-region',
      }),
    });
    const created = await request(behindProxy)
      .post('/api/store/checkout')
      .set({
        'cf-ipcountry': 'BR',
        'cf-ipcity': 'S%C3%A3o%20Paulo',
        'cf-region': 'SP',
        'X-Forwarded-For': '203.0.113.7',
      })
      .send({ productId: fundamentals.id, email: 'located@example.com' });
    expect(created.status).toBe(201);
    await payAt(created.body.url);
    const { purchaseId } = (await status(created.body.checkoutId)).body;
    expect(await Purchase.query(db()).findById(purchaseId)).toMatchObject({
      country: 'BR',
      city: 'São Paulo',
      state: 'SP',
      ipAddress: '203.0.113.7',
    });
  });

  it('gives a limited coupon its use back the moment the buyer cancels at the provider', async () => {
    const coupon = await createCoupon(db(), { code: 'LASTONE', percentageDiscount: 0.3, maxUses: 1 });
    const first = (await checkout({ productId: fundamentals.id, coupon: 'LASTONE', email: 'first@example.com' })).body;
    expect((await Coupon.query(db()).findById(coupon.id))!.usedCount).toBe(1);
    expect(
      (await checkout({ productId: fundamentals.id, coupon: 'LASTONE', email: 'second@example.com' })).body.code,
    ).toBe('coupon-not-valid');
    await payAt(first.url, 'cancel');
    expect((await Coupon.query(db()).findById(coupon.id))!.usedCount).toBe(0);
    const second = await checkout({ productId: fundamentals.id, coupon: 'LASTONE', email: 'second@example.com' });
    expect(second.status).toBe(201);
    await payAt(second.body.url);
    expect((await status(second.body.checkoutId)).body.status).toBe('fulfilled');
    expect((await Coupon.query(db()).findById(coupon.id))!.usedCount).toBe(1);
  });

  it('refunds through the test provider from the console, part and then the rest', async () => {
    const { checkoutId, url } = (await checkout({ productId: fundamentals.id, email: 'test-refund@example.com' })).body;
    await payAt(url);
    const { purchaseId } = (await status(checkoutId)).body;
    const support = await signedIn(db(), ['support']);
    const refund = (body: object) =>
      as(support, request(app()).post(`/api/admin/purchases/${purchaseId}/refund`)).send(body);
    expect(
      (await refund({ amount: 900, reasonCode: 'customer-request', reason: 'Late start' })).body.data,
    ).toMatchObject({
      refundAmount: 900,
      full: false,
    });
    expect((await refund({ reasonCode: 'customer-request', reason: 'Changed their mind' })).body.data).toMatchObject({
      full: true,
    });
    expect((await Purchase.query(db()).findById(purchaseId))!.status).toBe('Refunded');
    const purchase = (await Purchase.query(db()).findById(purchaseId))!;
    const charge = await db()('merchantCharges').where({ id: purchase.merchantChargeId }).first();
    expect(await db()('testProviderSessions').where({ chargeIdentifier: charge.identifier }).first('refunded')).toEqual(
      { refunded: charge.amount },
    );
  });

  it('sells seats to a team, and more seats later go onto the same team coupon', async () => {
    const lead = await signedIn(db());
    const buy = async (quantity: number) => {
      const { checkoutId, url } = (
        await as(lead, request(app()).post('/api/store/checkout')).send({ productId: fundamentals.id, quantity })
      ).body;
      await payAt(url);
      return (await status(checkoutId)).body.purchaseId as string;
    };
    const first = await Purchase.query(db()).findById(await buy(5));
    const coupon = await Coupon.query(db()).findById(first!.bulkCouponId!);
    expect(coupon).toMatchObject({
      percentageDiscount: 1,
      maxUses: 5,
      restrictedToProductId: fundamentals.id,
      bulkPurchaseId: first!.id,
    });
    const second = await Purchase.query(db()).findById(await buy(3));
    expect(second!.bulkCouponId).toBe(coupon!.id);
    expect((await Coupon.query(db()).findById(coupon!.id))!.maxUses).toBe(8);
  });

  it('never sells more seats than a product has: the late payer is refunded in full', async () => {
    const limited = await createProduct(db(), {
      name: 'Two-seat workshop',
      productType: 'live',
      quantityAvailable: 2,
      unitAmount: 10_000,
    });
    const sessions = await Promise.all(
      [1, 2, 3].map((n) => checkout({ productId: limited.id, email: `seat${n}@example.com` })),
    );
    for (const s of sessions) expect(s.status).toBe(201);
    for (const s of sessions) await payAt(s.body.url);
    const outcomes = await Promise.all(sessions.map((s) => status(s.body.checkoutId)));
    expect(outcomes.map((o) => o.body.status).sort()).toEqual(['fulfilled', 'fulfilled', 'refunded']);
    expect(
      await Purchase.query(db()).where({ productId: limited.id }).whereIn('status', GRANTING_STATUSES).resultSize(),
    ).toBe(2);
    const refunded = outcomes.find((o) => o.body.status === 'refunded')!;
    const purchase = await Purchase.query(db()).findById(refunded.body.purchaseId).withGraphFetched('merchantCharge');
    expect(
      (purchase as unknown as { merchantCharge: { refundAmount: number; amount: number } }).merchantCharge,
    ).toMatchObject({
      refundAmount: 8000,
      amount: 8000,
    });
    expect(await OutboxEmail.query(db()).where({ kind: 'sold-out-refund' }).resultSize()).toBe(1);
    // And now the page says so before anyone pays.
    const late = await checkout({ productId: limited.id, email: 'late@example.com' });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('sold-out');
  });

  it('redeems a 100 % coupon without payment, exactly as many times as it allows', async () => {
    const product = await createProduct(db(), { name: 'Gift course', unitAmount: 5000 });
    await createCoupon(db(), { code: 'GIFT3', percentageDiscount: 1, maxUses: 3, restrictedToProductId: product.id });
    const attempts = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        checkout({ productId: product.id, coupon: 'gift3', email: `gift${n}@example.com` }),
      ),
    );
    const ok = attempts.filter((a) => a.status === 201);
    expect(ok).toHaveLength(3);
    for (const refused of attempts.filter((a) => a.status !== 201)) expect(refused.body.code).toBe('coupon-not-valid'); // signed out: one answer
    expect(await Purchase.query(db()).where({ productId: product.id }).resultSize()).toBe(3);
    expect((await Coupon.query(db()).findOne({ code: 'GIFT3' }))!.usedCount).toBe(3);
    expect(ok[0]!.body.url).toMatch(/\/thanks\?checkout=/);
  });

  it('refuses bad checkouts clearly', async () => {
    const noEmail = await checkout({ productId: fundamentals.id });
    expect(noEmail.status).toBe(400);
    expect(noEmail.body.errors).toEqual({ email: 'is required when not signed in' });
    const badCoupon = await checkout({ productId: fundamentals.id, coupon: 'NOPE', email: 'a@example.com' });
    expect(badCoupon.status).toBe(400);
    expect(badCoupon.body).toMatchObject({ code: 'coupon-not-valid', errors: { coupon: 'This code is not valid.' } });
    expect((await checkout({ productId: fundamentals.id, quantity: 0, email: 'a@example.com' })).status).toBe(400);
    expect((await checkout({ productId: fundamentals.id, email: 'a@example.com', price: 1 })).status).toBe(400);
    expect((await status('00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });
});
