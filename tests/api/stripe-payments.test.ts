import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Coupon, Product, Purchase } from '../support/models';
import { createCoupon, createProduct } from '../../seeds/factories';
import { runSeeds } from '../../seeds/run';
import { testApp, testConfig } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { sessionOfCheckout } from '../support/checkout';
import { useTestDatabase } from '../support/db';
import { signed, standInEnv, startStripeStandIn, type StandIn, deliverSigned } from '../support/stripe-stand-in';

describe('payments through Stripe (the real SDK against a local stand-in for its API)', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let stripe: StandIn;
  let app: ReturnType<typeof testApp>;
  let support: SignedIn;
  let fundamentals: Product;

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    app = testApp(db(), { config: testConfig(standInEnv(stripe)) });
    await runSeeds(db(), { demo: true });
    // Payments only: the demo school's tax is set aside (Stripe Tax has tests/api/stripe-tax.test.ts).
    await db()('schoolSettings').update({ taxCountry: null });
    fundamentals = (await Product.query(db()).findOne({ key: 'typescript-fundamentals' }))!;
    support = await signedIn(db(), ['support']);
  });
  afterAll(() => stripe?.close());

  const checkout = (body: object) => request(app).post('/api/store/checkout').send(body);
  const deliver = (event: Parameters<typeof deliverSigned>[1]) => deliverSigned(app, event);
  const thanks = (checkoutId: string) => request(app).get(`/api/store/checkouts/${checkoutId}`);
  const sessionOf = (checkoutId: string) => sessionOfCheckout(db(), checkoutId);
  /** Starts a checkout and pays for it at Stripe; returns the completed event, not yet delivered. */
  async function paidCheckout(body: object) {
    const created = await checkout(body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const session = await sessionOf(created.body.checkoutId);
    return { checkoutId: created.body.checkoutId as string, session, completed: stripe.pay(session) };
  }
  const count = async (query: import('knex').Knex.QueryBuilder) => Number((await query.count({ n: '*' }))[0]!.n);
  const chargeOf = async (purchaseId: string) => {
    const purchase = (await Purchase.query(db()).findById(purchaseId))!;
    return db()('merchantCharges').where({ id: purchase.merchantChargeId }).first();
  };

  it('creates a Checkout Session for exactly the quoted price, syncing the product and price once', async () => {
    const quote = await request(app).get(`/api/store/products/${fundamentals.id}/quote`).query({ coupon: 'WELCOME10' });
    const created = await checkout({ productId: fundamentals.id, coupon: 'WELCOME10', email: 'sync@example.com' });
    expect(created.status).toBe(201);
    expect(created.body.url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);

    const session = stripe.objects.get(await sessionOf(created.body.checkoutId))!;
    expect(session.amount_total).toBe(quote.body.quote.finalPrice);
    expect(session.amount_subtotal).toBe(4900);
    expect(session.client_reference_id).toBe(created.body.checkoutId);
    expect(session.metadata).toMatchObject({
      productId: fundamentals.id,
      country: 'US',
      checkoutId: created.body.checkoutId,
    });
    expect(session.customer_email).toBe('sync@example.com');

    const merchantProduct = await db()('merchantProducts').where({ productId: fundamentals.id }).first();
    expect(stripe.objects.get(merchantProduct.identifier)?.object).toBe('product');
    const merchantPrice = await db()('merchantPrices').where({ merchantProductId: merchantProduct.id }).first();
    expect(stripe.objects.get(merchantPrice.identifier)).toMatchObject({
      unit_amount: 4900,
      product: merchantProduct.identifier,
    });
    const { coupon } = (session.discounts as { coupon: string }[])[0]!;
    expect(stripe.objects.get(coupon)).toMatchObject({
      amount_off: 4900 - quote.body.quote.finalPrice,
      max_redemptions: 1,
    });
    expect(await db()('merchantCoupons').where({ identifier: coupon }).first()).toMatchObject({ type: 'amount_off' });

    await checkout({ productId: fundamentals.id, email: 'sync2@example.com' });
    expect(stripe.calls.get('POST /v1/products')).toBe(1);
    expect(stripe.calls.get('POST /v1/prices')).toBe(1);
  });

  it('fulfils once when the completed event arrives 10 times at once and the thank-you page asks too', async () => {
    const { checkoutId, completed } = await paidCheckout({ productId: fundamentals.id, email: 'Racer@Example.com' });
    const answers = await Promise.all([...Array.from({ length: 10 }, () => deliver(completed)), thanks(checkoutId)]);
    expect(answers.map((a) => a.status)).toEqual(Array(11).fill(200));

    const purchases = await Purchase.query(db()).joinRelated('user').where('user.email', 'racer@example.com');
    expect(purchases).toHaveLength(1);
    expect((await thanks(checkoutId)).body).toMatchObject({
      status: 'fulfilled',
      purchaseId: purchases[0]!.id,
      team: null,
      receipt: { email: 'racer@example.com', quantity: 1 },
    });
    const charge = await chargeOf(purchases[0]!.id);
    const stripeCharge = [...stripe.objects.values()].find((o) => o.id === charge.identifier)!;
    const balance = stripe.objects.get(stripeCharge.balance_transaction as string)!;
    expect(charge).toMatchObject({
      amount: stripeCharge.amount,
      fee: balance.fee,
      net: (stripeCharge.amount as number) - (balance.fee as number),
    });
    expect(await db()('merchantCustomers').where({ id: charge.merchantCustomerId }).first('identifier')).toEqual({
      identifier: stripeCharge.customer,
    });
    expect(await count(db()('merchantEvents').where({ identifier: completed.id }))).toBe(1);
    expect(await count(db()('outboxEmails').where({ toAddress: 'racer@example.com', kind: 'receipt' }))).toBe(1);
    // A redelivery long after is recognised by its id.
    expect((await deliver(completed)).body).toEqual({ received: true, duplicate: true });
  });

  it('refuses a delivery whose signature is missing, wrong or for another body, and stores nothing', async () => {
    const event = stripe.event('checkout.session.completed', { id: 'cs_test_forged', object: 'checkout.session' });
    const { payload, signature } = signed(event);
    const post = () => request(app).post('/api/webhooks/stripe').set('Content-Type', 'application/json');
    const missing = await post().send(payload);
    const wrongSecret = await post()
      .set('Stripe-Signature', signed(event, 'whsec_someone_else').signature)
      .send(payload);
    const tampered = await post()
      .set('Stripe-Signature', signature)
      .send(payload.replace('cs_test_forged', 'cs_test_other'));
    for (const answer of [missing, wrongSecret, tampered]) {
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('webhook-signature-invalid');
    }
    expect(await db()('merchantEvents').where({ identifier: event.id }).first()).toBeUndefined();
  });

  it('answers 200 to an event type it does not handle, and stores it once', async () => {
    const event = stripe.event('customer.updated', { id: 'cus_nobody', object: 'customer' });
    const answer = await deliver(event);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ received: true, ignored: true });
    expect((await deliver(event)).body).toEqual({ received: true, duplicate: true });
  });

  it('refunds partly and then fully from the console and from Stripe, converging whoever starts and in any order', async () => {
    const { checkoutId, completed } = await paidCheckout({ productId: fundamentals.id, email: 'refunds@example.com' });
    await deliver(completed);
    const { purchaseId } = (await thanks(checkoutId)).body;
    const charge = await chargeOf(purchaseId);
    const refund = (body: object) =>
      as(support, request(app).post(`/api/admin/purchases/${purchaseId}/refund`)).send(body);

    const tooMuch = await refund({
      amount: charge.amount + 1,
      reasonCode: 'customer-request',
      reason: 'testing the limit',
    });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body).toMatchObject({
      code: 'refund-too-large',
      errors: { amount: expect.stringContaining('left to refund') },
    });
    expect(stripe.calls.get('POST /v1/refunds') ?? 0).toBe(0);
    expect((await refund({ amount: 500 })).body.code).toBe('validation-failed');

    const partial = await refund({ amount: 1000, reasonCode: 'customer-request', reason: 'The course started late' });
    expect(partial.status).toBe(200);
    expect(partial.body.data).toMatchObject({ refundAmount: 1000, full: false });
    expect(await Purchase.query(db()).findById(purchaseId)).toMatchObject({ status: 'Valid' });
    const recorded = await db()('merchantRefunds').where({ merchantChargeId: charge.id }).first();
    expect(recorded).toMatchObject({ amount: 1000, reason: 'The course started late', requestedById: support.user.id });
    expect(stripe.objects.get(recorded.identifier)).toMatchObject({ amount: 1000, charge: charge.identifier });

    // Stripe's own event for our refund changes nothing more.
    const ours = stripe.chargeRefundedEvent(charge.identifier);
    expect((await deliver(ours)).status).toBe(200);
    expect((await db()('merchantCharges').where({ id: charge.id }).first()).refundAmount).toBe(1000);

    // The rest refunded in Stripe's dashboard: the purchase ends, whoever started it.
    const rest = stripe.refundFromDashboard(charge.identifier, charge.amount - 1000);
    await deliver(rest);
    expect(await Purchase.query(db()).findById(purchaseId)).toMatchObject({ status: 'Refunded' });
    expect((await db()('merchantCharges').where({ id: charge.id }).first()).refundAmount).toBe(charge.amount);

    // A late copy of the partial event never moves it back; nothing is left to refund from the console.
    await deliver({ ...ours, id: `${ours.id}_late` });
    expect(await Purchase.query(db()).findById(purchaseId)).toMatchObject({ status: 'Refunded' });
    expect((await db()('merchantCharges').where({ id: charge.id }).first()).refundAmount).toBe(charge.amount);
    expect((await refund({ reasonCode: 'customer-request', reason: 'once more' })).body.code).toBe(
      'refund-not-possible',
    );
    // One email per refund, whichever side started it: the console's, and the dashboard's (issue: it sent none).
    const emails = await db()('outboxEmails')
      .where({ toAddress: 'refunds@example.com', kind: 'refund' })
      .orderBy('createdAt');
    expect(emails.map((e) => e.textBody)).toEqual([
      expect.stringContaining('We refunded $10.00 of your purchase'),
      expect.stringContaining(
        `We refunded your purchase of TypeScript Fundamentals in full ($${((charge.amount - 1000) / 100).toFixed(2)})`,
      ),
    ]);
  });

  it('refunds in full from the console: access ends and the open transfer is canceled', async () => {
    const { checkoutId, completed } = await paidCheckout({ productId: fundamentals.id, email: 'full@example.com' });
    await deliver(completed);
    const { purchaseId } = (await thanks(checkoutId)).body;
    // Fulfilment opened the purchase's transfer window.
    expect(await db()('purchaseUserTransfers').where({ purchaseId }).first('transferState')).toEqual({
      transferState: 'AVAILABLE',
    });

    const answer = await as(support, request(app).post(`/api/admin/purchases/${purchaseId}/refund`)).send({
      reasonCode: 'customer-request',
      reason: 'Asked within 30 days',
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ full: true });
    expect(await Purchase.query(db()).findById(purchaseId)).toMatchObject({
      status: 'Refunded',
      statusReason: 'Requested by the customer: Asked within 30 days',
    });
    expect(await db()('purchaseUserTransfers').where({ purchaseId }).first('transferState')).toEqual({
      transferState: 'CANCELED',
    });
    const charge = await chargeOf(purchaseId);
    expect(stripe.objects.get(charge.identifier)).toMatchObject({ refunded: true });
    const audit = await db()('auditLogs').where({ recordId: purchaseId, action: 'purchase.refunded' }).first();
    expect(audit.actorId).toBe(support.user.id);
  });

  it('ends access while a dispute is open, gives it back when won, and keeps it ended when lost', async () => {
    const won = await paidCheckout({ productId: fundamentals.id, email: 'dispute-won@example.com' });
    await deliver(won.completed);
    const wonPurchase = (await thanks(won.checkoutId)).body.purchaseId;
    const wonCharge = await chargeOf(wonPurchase);
    const opened = stripe.openDispute(wonCharge.identifier);
    await deliver(opened.event);
    expect(await Purchase.query(db()).findById(wonPurchase)).toMatchObject({ status: 'Disputed' });
    const refused = await as(support, request(app).post(`/api/admin/purchases/${wonPurchase}/refund`)).send({
      reasonCode: 'customer-request',
      reason: 'during a dispute',
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('refund-not-possible');
    await deliver(stripe.closeDispute(opened.dispute, 'won'));
    expect(await Purchase.query(db()).findById(wonPurchase)).toMatchObject({ status: 'Valid' });
    // The opening event delivered again, late, cannot reopen a closed dispute.
    await deliver({ ...opened.event, id: `${opened.event.id}_again` });
    expect(await Purchase.query(db()).findById(wonPurchase)).toMatchObject({ status: 'Valid' });

    const lost = await paidCheckout({ productId: fundamentals.id, email: 'dispute-lost@example.com' });
    await deliver(lost.completed);
    const lostPurchase = (await thanks(lost.checkoutId)).body.purchaseId;
    const lostDispute = stripe.openDispute((await chargeOf(lostPurchase)).identifier);
    // Out of order: the close arrives before the opening.
    await deliver(stripe.closeDispute(lostDispute.dispute, 'lost'));
    await deliver(lostDispute.event);
    expect(await Purchase.query(db()).findById(lostPurchase)).toMatchObject({ status: 'Valid' });
    const record = await db()('merchantDisputes').where({ identifier: lostDispute.dispute }).first();
    expect(record.status).toBe('lost');
  });

  it('gives a won dispute back as a seat to give away when its holder bought the course again meanwhile', async () => {
    const email = 'disputed-then-bought-again@example.com';
    const first = await paidCheckout({ productId: fundamentals.id, email });
    await deliver(first.completed);
    const disputed = (await thanks(first.checkoutId)).body.purchaseId;
    const opened = stripe.openDispute((await chargeOf(disputed)).identifier);
    await deliver(opened.event);
    // Access ended: the same address buys the course again, an ordinary copy.
    const again = await paidCheckout({ productId: fundamentals.id, email });
    await deliver(again.completed);
    const second = (await thanks(again.checkoutId)).body.purchaseId;
    expect(await Purchase.query(db()).findById(second)).toMatchObject({ status: 'Valid', bulkCouponId: null });

    await deliver(stripe.closeDispute(opened.dispute, 'won'));
    const back = (await Purchase.query(db()).findById(disputed))!;
    expect(back).toMatchObject({ status: 'Valid' });
    expect(back.bulkCouponId).toBeTruthy();
    expect(await db()('coupons').where({ id: back.bulkCouponId }).first()).toMatchObject({
      maxUses: 1,
      usedCount: 0,
      bulkPurchaseId: disputed,
    });
    const open = await db()('purchaseUserTransfers')
      .where({ purchaseId: disputed })
      .whereIn('transferState', ['AVAILABLE', 'INITIATED', 'VERIFIED', 'CONFIRMED']);
    expect(open).toEqual([]);
  });

  it('bans a purchase (admins only, with a reason), after which no event gives access back', async () => {
    const { checkoutId, completed } = await paidCheckout({ productId: fundamentals.id, email: 'banned@example.com' });
    await deliver(completed);
    const { purchaseId } = (await thanks(checkoutId)).body;
    const ban = (who: SignedIn, body: object) =>
      as(who, request(app).post(`/api/admin/purchases/${purchaseId}/ban`)).send(body);
    expect((await ban(support, { reason: 'shared the account' })).status).toBe(403);
    const admin = await signedIn(db(), ['admin']);
    expect((await ban(admin, {})).body.code).toBe('validation-failed');
    expect((await ban(admin, { reason: 'Shared the account publicly' })).status).toBe(200);
    expect(await Purchase.query(db()).findById(purchaseId)).toMatchObject({
      status: 'Banned',
      statusReason: 'Shared the account publicly',
    });
    expect((await ban(admin, { reason: 'again' })).body.code).toBe('status-change-not-allowed');
    const dispute = stripe.openDispute((await chargeOf(purchaseId)).identifier);
    await deliver(dispute.event);
    await deliver(stripe.closeDispute(dispute.dispute, 'won'));
    expect(await Purchase.query(db()).findById(purchaseId)).toMatchObject({ status: 'Banned' });
  });

  it('lets exactly M of N > M concurrent checkouts use a coupon with M uses, and an expired one gives its use back', async () => {
    const coupon = await createCoupon(db(), { code: 'THREELEFT', percentageDiscount: 0.5, maxUses: 3 });
    const course = await createProduct(db(), { name: 'Coupon Race Course', unitAmount: 10_000 });
    const attempts = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        checkout({ productId: course.id, coupon: 'THREELEFT', email: `race${i}@example.com` }),
      ),
    );
    const started = attempts.filter((a) => a.status === 201);
    expect(started).toHaveLength(3);
    for (const refused of attempts.filter((a) => a.status !== 201))
      expect(refused.body).toMatchObject({ code: 'coupon-not-valid' }); // signed out: one answer

    const [expiring, ...paying] = started;
    for (const attempt of paying) await deliver(stripe.pay(await sessionOf(attempt.body.checkoutId)));
    await deliver(stripe.expire(await sessionOf(expiring!.body.checkoutId)));
    expect((await thanks(expiring!.body.checkoutId)).body.status).toBe('canceled');
    expect((await Coupon.query(db()).findById(coupon.id))!.usedCount).toBe(2);
    expect(await Purchase.query(db()).where({ couponId: coupon.id, totalAmount: 5000 })).toHaveLength(2);

    const another = await paidCheckout({ productId: course.id, coupon: 'THREELEFT', email: 'late@example.com' });
    await deliver(another.completed);
    expect((await Coupon.query(db()).findById(coupon.id))!.usedCount).toBe(3);
    expect((await checkout({ productId: course.id, coupon: 'THREELEFT', email: 'later@example.com' })).body.code).toBe(
      'coupon-not-valid',
    );
  });

  it('never sells more than S seats: payments that lose the race are refunded in full with an apology', async () => {
    const limited = await createProduct(db(), { name: 'Five Seat Workshop', unitAmount: 20_000, quantityAvailable: 5 });
    const buyers = Array.from({ length: 8 }, (_, i) => `seat${i}@example.com`);
    const paid = [];
    for (const email of buyers) paid.push(await paidCheckout({ productId: limited.id, email }));
    await Promise.all(paid.flatMap((p) => [deliver(p.completed), deliver(p.completed), thanks(p.checkoutId)]));

    const purchases = await Purchase.query(db()).where({ productId: limited.id });
    expect(purchases.filter((p) => p.status === 'Valid')).toHaveLength(5);
    const refunded = purchases.filter((p) => p.status === 'Refunded');
    expect(refunded).toHaveLength(3);
    for (const purchase of refunded) {
      const charge = await chargeOf(purchase.id);
      expect(charge.refundAmount).toBe(charge.amount);
      expect(stripe.objects.get(charge.identifier)).toMatchObject({ refunded: true, amount_refunded: charge.amount });
    }
    expect(await count(db()('outboxEmails').whereIn('toAddress', buyers).where({ kind: 'sold-out-refund' }))).toBe(3);
    expect((await checkout({ productId: limited.id, email: 'too-late@example.com' })).body.code).toBe('sold-out');
  });

  it('refunds a payment that lost the last seat after its transaction, holding no lock while Stripe answers', async () => {
    const limited = await createProduct(db(), { name: 'One Seat Workshop', unitAmount: 20_000, quantityAvailable: 1 });
    const winner = await paidCheckout({ productId: limited.id, email: 'first-seat@example.com' });
    const loser = await paidCheckout({ productId: limited.id, email: 'second-seat@example.com' });
    await deliver(winner.completed);
    // While Stripe is asked for the refund, the checkout and the product can be locked by someone else at once.
    let probed: string[] | null = null;
    stripe.beforeNext('POST /v1/refunds', async () => {
      probed = await db().transaction(async (trx) => {
        const rows = await trx.raw(
          'SELECT c.id FROM checkouts c JOIN products p ON p.id = c.product_id WHERE c.id = ? FOR UPDATE NOWAIT',
          [loser.checkoutId],
        );
        return rows.rows.map((r: { id: string }) => r.id);
      });
    });
    expect((await deliver(loser.completed)).status).toBe(200);
    expect(probed).toEqual([loser.checkoutId]);
    const purchase = (await Purchase.query(db()).findOne({ productId: limited.id, status: 'Refunded' }))!;
    const charge = await chargeOf(purchase.id);
    expect(charge.refundAmount).toBe(charge.amount);
    expect(await db()('merchantRefunds').where({ merchantChargeId: charge.id })).toEqual([
      expect.objectContaining({ status: 'succeeded', amount: charge.amount }),
    ]);
    expect(
      await count(db()('outboxEmails').where({ toAddress: 'second-seat@example.com', kind: 'sold-out-refund' })),
    ).toBe(1);
    // Stripe's own charge.refunded for it adds nothing and sends no second email.
    await deliver(stripe.chargeRefundedEvent(charge.identifier));
    expect(
      await count(
        db()('outboxEmails')
          .where({ toAddress: 'second-seat@example.com' })
          .whereIn('kind', ['refund', 'sold-out-refund']),
      ),
    ).toBe(1);
  });

  it('finishes a sold-out refund that Stripe failed on the next delivery of the event, refunding once', async () => {
    const limited = await createProduct(db(), {
      name: 'Another One Seat Workshop',
      unitAmount: 20_000,
      quantityAvailable: 1,
    });
    const winner = await paidCheckout({ productId: limited.id, email: 'seat-taken@example.com' });
    const loser = await paidCheckout({ productId: limited.id, email: 'refund-later@example.com' });
    await deliver(winner.completed);
    stripe.failNext('POST /v1/refunds', 3); // the first try and the SDK's two retries
    expect((await deliver(loser.completed)).status).toBe(502);
    const purchase = (await Purchase.query(db()).findOne({ productId: limited.id, status: 'Refunded' }))!;
    expect((await chargeOf(purchase.id)).refundAmount).toBe(0);
    expect(await count(db()('outboxEmails').where({ toAddress: 'refund-later@example.com' }))).toBe(0);

    expect((await deliver(loser.completed)).status).toBe(200); // Stripe delivers again after a failure
    const charge = await chargeOf(purchase.id);
    expect(charge.refundAmount).toBe(charge.amount);
    expect(
      [...stripe.objects.values()].filter((o) => o.object === 'refund' && o.charge === charge.identifier),
    ).toHaveLength(1);
    expect(
      await count(db()('outboxEmails').where({ toAddress: 'refund-later@example.com', kind: 'sold-out-refund' })),
    ).toBe(1);
    expect((await thanks(loser.checkoutId)).body.status).toBe('refunded');
  });

  it('answers 502 when Stripe is down, charging nothing and giving the coupon use back', async () => {
    const coupon = await createCoupon(db(), { code: 'ONEUSE', percentageDiscount: 0.25, maxUses: 1 });
    stripe.failNext('POST /v1/checkout/sessions', 3); // the first try and the SDK's two retries
    const answer = await checkout({ productId: fundamentals.id, coupon: 'ONEUSE', email: 'outage@example.com' });
    expect(answer.status).toBe(502);
    expect(answer.body.code).toBe('payment-provider-unavailable');
    expect((await Coupon.query(db()).findById(coupon.id))!.usedCount).toBe(0);
    expect(await db()('checkouts').where({ buyerEmail: 'outage@example.com' }).first('status')).toEqual({
      status: 'canceled',
    });
  });
});
