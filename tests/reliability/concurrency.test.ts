import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { Coupon, DeviceAccessToken, Purchase } from '../support/models';
import { hashSecret, newSecret } from '../../api/src/identity/secrets';
import { merchantAccountId } from '../../api/src/payments/merchant-records';
import { createServices, type Services } from '../../api/src/services';
import { createCoupon, createCourse, createProduct, createPurchase } from '../../seeds/factories';
import { testDeps } from '../support/app';
import { as, signedIn } from '../support/auth';
import { raceTransferAgainstRefund } from '../support/transfer-race';
import { useTestDatabase } from '../support/db';
import { startStripeStandIn, type StandIn } from '../support/stripe-stand-in';
import { count, expectFulfilledOnce, inBatches, stripeShop } from './harness';

/** The races of the earlier issues, at counts high enough that every interleaving the pool allows happens. */
describe('concurrency at high counts', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let stripe: StandIn;
  const shop = stripeShop(db, () => stripe);

  beforeAll(async () => {
    stripe = await startStripeStandIn();
  });
  afterAll(() => stripe?.close());

  it("records the payment provider's account once when 20 first uses race (a fresh install's first sales)", async () => {
    const account = { label: 'stripe-race', identifier: 'acct_race' };
    const ids = await Promise.all(Array.from({ length: 20 }, () => merchantAccountId(db(), account)));
    expect(new Set(ids).size).toBe(1);
    expect(await count(db()('merchantAccounts').where({ label: 'stripe-race' }))).toBe(1);
  });

  it('fulfils each of 20 checkouts once when its completed event arrives 50 times at once and the thank-you page polls', async () => {
    const course = await createProduct(db(), { name: 'Duplicate Webhook Course', unitAmount: 4900 });
    const paid = await inBatches(
      Array.from({ length: 20 }, (_, i) => i),
      5,
      (i) => shop.paidCheckout({ productId: course.id, email: `dup${i}@example.com` }),
    );
    await inBatches(paid, 4, async ({ checkoutId, completed }) => {
      const answers = await Promise.all([
        ...Array.from({ length: 50 }, () => shop.deliver(completed)),
        ...Array.from({ length: 5 }, () => shop.thanks(checkoutId)),
      ]);
      expect(answers.map((a) => a.status)).toEqual(Array(55).fill(200));
    });

    const purchases = await expectFulfilledOnce(db(), stripe, paid);
    expect(purchases.every((p) => p.status === 'Valid' && p.productId === course.id)).toBe(true);
    expect(
      await count(
        db()('merchantEvents').whereIn(
          'identifier',
          paid.map((p) => p.completed.id),
        ),
      ),
    ).toBe(20);
    expect(
      await count(
        db()('purchaseUserTransfers').whereIn(
          'purchaseId',
          purchases.map((p) => p.id),
        ),
      ),
    ).toBe(20);
    for (const { checkoutId } of paid) expect((await shop.thanks(checkoutId)).body.status).toBe('fulfilled');
  });

  it('lets exactly 10 of 100 racing checkouts use a coupon with 10 uses, and counts 10 uses when all are paid', async () => {
    const coupon = await createCoupon(db(), { code: 'TENLEFT', percentageDiscount: 0.5, maxUses: 10 });
    const course = await createProduct(db(), { name: 'Coupon Race Course', unitAmount: 10_000 });
    const attempts = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        shop.checkout({ productId: course.id, coupon: 'TENLEFT', email: `coupon${i}@example.com` }),
      ),
    );
    const started = attempts.filter((a) => a.status === 201);
    expect(started).toHaveLength(10);
    // Signed out, every coupon problem is one answer (whether the coupon ran out before the quote or at the reservation).
    for (const refused of attempts.filter((a) => a.status !== 201)) {
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('coupon-not-valid');
    }
    expect((await Coupon.query(db()).findById(coupon.id))!.usedCount).toBe(10);
    // Checkouts refused before paying leave nothing open behind them.
    expect(await count(db()('checkouts').where({ couponId: coupon.id }))).toBe(10);

    const paid = await Promise.all(
      started.map(async (s) => {
        const session = (
          await db()('merchantSessions')
            .join('checkouts', 'checkouts.merchantSessionId', 'merchantSessions.id')
            .where('checkouts.id', s.body.checkoutId)
            .first('identifier')
        ).identifier;
        return { checkoutId: s.body.checkoutId as string, session, completed: stripe.pay(session) };
      }),
    );
    await Promise.all(
      paid.flatMap((p) => [shop.deliver(p.completed), shop.deliver(p.completed), shop.thanks(p.checkoutId)]),
    );
    await expectFulfilledOnce(db(), stripe, paid);
    expect((await Coupon.query(db()).findById(coupon.id))!.usedCount).toBe(10);
    expect(
      await Purchase.query(db()).where({ couponId: coupon.id, totalAmount: 5000, status: 'Valid' }).resultSize(),
    ).toBe(10);
    expect(
      (await shop.checkout({ productId: course.id, coupon: 'TENLEFT', email: 'late@example.com' })).body.code,
    ).toBe('coupon-not-valid');
  });

  it('sells exactly 15 seats to 40 paid checkouts fulfilled at once; the other 25 are refunded in full, once', async () => {
    const limited = await createProduct(db(), {
      name: 'Fifteen Seat Workshop',
      unitAmount: 20_000,
      quantityAvailable: 15,
    });
    const paid = await inBatches(
      Array.from({ length: 40 }, (_, i) => i),
      8,
      (i) => shop.paidCheckout({ productId: limited.id, email: `seat${i}@example.com` }),
    );
    const refundsBefore = stripe.calls.get('POST /v1/refunds') ?? 0;
    const answers = await Promise.all(
      paid.flatMap((p) => [shop.deliver(p.completed), shop.deliver(p.completed), shop.thanks(p.checkoutId)]),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(120).fill(200));

    const purchases = await expectFulfilledOnce(db(), stripe, paid);
    expect(purchases.filter((p) => p.status === 'Valid')).toHaveLength(15);
    const refunded = purchases.filter((p) => p.status === 'Refunded');
    expect(refunded).toHaveLength(25);
    for (const purchase of refunded) {
      const charge = await db()('merchantCharges').where({ id: purchase.merchantChargeId }).first();
      expect(charge.refundAmount).toBe(charge.amount);
      expect(stripe.objects.get(charge.identifier)).toMatchObject({ refunded: true, amount_refunded: charge.amount });
      const refunds = [...stripe.objects.values()].filter(
        (o) => o.object === 'refund' && o.charge === charge.identifier,
      );
      expect(refunds).toHaveLength(1);
      expect(await count(db()('merchantRefunds').where({ merchantChargeId: charge.id }))).toBe(1);
    }
    // Concurrent fulfilments of one checkout may each ask Stripe to refund, but with one key: one refund each.
    expect((stripe.calls.get('POST /v1/refunds') ?? 0) - refundsBefore).toBeGreaterThanOrEqual(25);
    expect(
      await count(
        db()('outboxEmails')
          .whereIn(
            'toAddress',
            paid.map((_, i) => `seat${i}@example.com`),
          )
          .where({ kind: 'sold-out-refund' }),
      ),
    ).toBe(25);
    expect((await shop.checkout({ productId: limited.id, email: 'too-late@example.com' })).body.code).toBe('sold-out');
  });

  describe('with the built-in test provider', () => {
    let services: Services;
    let app: ReturnType<ReturnType<typeof createApp>['callback']>;

    beforeAll(() => {
      const deps = testDeps(db());
      services = createServices(deps);
      app = createApp(deps, { services }).callback();
    });

    it('ends in one consistent state when a transfer races a refund (300 races, both orders)', async () => {
      const support = await signedIn(db(), ['support']);
      const course = await createProduct(db(), { name: 'Transfer Race Course', unitAmount: 5000 });
      const outcomes: Record<string, number> = { 'transferred-then-refunded': 0, 'refunded-first': 0 };
      const attempts = 300;
      // Either side up to 200 ms ahead, so that both orders and every overlap happen.
      await inBatches(
        Array.from({ length: attempts }, (_, n) => n),
        30,
        async (n) => {
          outcomes[
            await raceTransferAgainstRefund({ db: db(), services, productId: course.id, support, n, spreadMs: 200 })
          ]!++;
        },
      );
      expect(outcomes['transferred-then-refunded']! + outcomes['refunded-first']!).toBe(attempts);
      expect(outcomes['transferred-then-refunded']).toBeGreaterThan(0);
      expect(outcomes['refunded-first']).toBeGreaterThan(0);
      console.info(`transfer vs refund, ${attempts} races:`, outcomes);
    });

    it('records one progress row for 50 concurrent completes of a lesson from the session and a device token', async () => {
      const product = await createProduct(db(), { name: 'Progress Race Course' });
      const { lessons } = await createCourse(
        db(),
        {
          title: 'Progress Race Course',
          modules: [
            {
              title: 'One',
              sections: [
                { title: 'A', lessons: Array.from({ length: 10 }, (_, i) => ({ title: `P${i}`, body: '<p>x</p>' })) },
              ],
            },
          ],
        },
        { products: [product] },
      );
      const learner = await signedIn(db());
      await createPurchase(db(), { user: learner.user, product });
      const token = newSecret();
      await DeviceAccessToken.query(db()).insert({
        token: hashSecret(token),
        userId: learner.user.id,
        clientId: 'course-cli',
      });
      const fromSession = (method: 'put' | 'delete', lessonId: string) =>
        as(learner, request(app)[method](`/api/store/progress/lessons/${lessonId}`)).send({});
      const fromDevice = (method: 'put' | 'delete', lessonId: string) =>
        request(app)
          [method](`/api/store/progress/lessons/${lessonId}`)
          .set('Authorization', `Bearer ${token}`)
          .send({});
      const rowsOf = (lessonId: string) => count(db()('lessonProgress').where({ userId: learner.user.id, lessonId }));

      const [first, ...rest] = lessons;
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => (i % 2 ? fromDevice : fromSession)('put', first!.id)),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
      expect(await rowsOf(first!.id)).toBe(1);

      // Every other lesson completed 5 times at once from both: one row each, and the module counts them once.
      const many = await Promise.all(
        rest.flatMap((lesson) =>
          Array.from({ length: 5 }, (_, i) => (i % 2 ? fromDevice : fromSession)('put', lesson.id)),
        ),
      );
      expect(many.every((a) => a.status === 200)).toBe(true);
      for (const lesson of rest) expect(await rowsOf(lesson.id)).toBe(1);
      expect(await count(db()('lessonProgress').where({ userId: learner.user.id }))).toBe(10);
      const last = await fromSession('put', first!.id);
      expect(last.body.module).toMatchObject({ completed: 10, total: 10, percent: 100 });

      // Completes and un-completes racing: never more than one row, and every answer 200.
      const mixed = await Promise.all(
        Array.from({ length: 50 }, (_, i) => (i % 2 ? fromDevice : fromSession)(i % 3 ? 'put' : 'delete', first!.id)),
      );
      expect(mixed.every((a) => a.status === 200)).toBe(true);
      expect(await rowsOf(first!.id)).toBeLessThanOrEqual(1);
    });
  });
});
