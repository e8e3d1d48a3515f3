import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { createDb, type Db } from '../../api/src/db/connection';
import { Coupon, DeviceAccessToken, Purchase } from '../support/models';
import { hashSecret, newSecret } from '../../api/src/identity/secrets';
import { merchantAccountId } from '../../api/src/payments/merchant-records';
import { createServices, type Services } from '../../api/src/services';
import { createCoupon, createCourse, createProduct, createPurchase } from '../../seeds/factories';
import { testDeps } from '../support/app';
import { as, signedIn } from '../support/auth';
import { raceTransferAgainstRefund } from '../support/transfer-race';
import { sessionOfCheckout } from '../support/checkout';
import { createTestDatabase, useTestDatabase } from '../support/db';
import { expectTaxInvariants } from '../support/tax-invariants';
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

  describe('invoice numbers on two app instances', () => {
    /**
     * A database of the test's own (every charge in it is one of these), and two app instances on it, each with its
     * own services and connection pool, as two replicas of the server have. The school taxes: a charge carries VAT.
     */
    async function twoInstances() {
      const database = await createTestDatabase();
      const other: Db = createDb(database.url);
      await database.db('schoolSettings').update({ taxCountry: 'DE', taxEuOss: true, taxInclusiveCurrencies: ['eur'] });
      await database.db('taxRates').delete();
      await database.db('taxRates').insert([
        { country: 'DE', region: null, rateBp: 1900, name: 'VAT' },
        { country: 'FR', region: null, rateBp: 2000, name: 'VAT' },
      ]);
      const instances = [database.db, other].map((conn) => {
        const deps = testDeps(conn);
        const services = createServices(deps);
        return { services, app: createApp(deps, { services }).callback() };
      });
      const support = await signedIn(database.db, ['support']);
      const course = await createProduct(database.db, { name: 'Numbered Course', unitAmount: 11_900, currency: 'eur' });
      const on = (n: number) => instances[n % 2]!;
      return {
        db: database.db,
        course,
        on,
        /** A guest's checkout started on one instance and paid at the provider; not yet settled. */
        async paid(n: number, productId = course.id) {
          const started = await request(on(n).app)
            .post('/api/store/checkout')
            .send({ productId, email: `numbered${n}@example.com`, billing: { country: n % 3 ? 'DE' : 'FR' } });
          expect(started.status, JSON.stringify(started.body)).toBe(201);
          await on(n).services.testProvider.pay(await sessionOfCheckout(database.db, started.body.checkoutId));
          return started.body.checkoutId as string;
        },
        /** The thank-you page asked on both instances at once: whichever settles it first numbers its invoice. */
        async settleOnBoth(checkoutId: string) {
          const answers = await Promise.all(
            instances.map((i) => request(i.app).get(`/api/store/checkouts/${checkoutId}`)),
          );
          return answers.find((a) => a.body.purchaseId)?.body.purchaseId as string | undefined;
        },
        refund: (n: number, purchaseId: string, amount: number) =>
          as(support, request(on(n).app).post(`/api/admin/purchases/${purchaseId}/refund`)).send({
            amount,
            reasonCode: 'customer-request',
            reason: 'asked by the buyer',
          }),
        async drop() {
          await other.destroy();
          await database.release();
        },
      };
    }

    const sequences = async (db: Db, kind: string) =>
      (await db('invoices').where({ kind }).orderBy('sequence').select('sequence')).map((r) => r.sequence);
    const oneTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

    it('numbers 60 invoices and 50 credit notes 1..n without gaps when purchases and refunds race on both', async () => {
      const shop = await twoInstances();
      try {
        const firstWave = await inBatches(
          Array.from({ length: 30 }, (_, n) => n),
          6,
          (n) => shop.paid(n),
        );
        // Ten at a time (each asked on both instances): enough to race, within the pools' connections.
        const bought = await inBatches(firstWave, 10, (id) => shop.settleOnBoth(id));
        expect(bought.every(Boolean)).toBe(true);

        // More purchases settle while each of the first is refunded in part, half of them on each instance.
        const secondWave = await inBatches(
          Array.from({ length: 30 }, (_, n) => 30 + n),
          6,
          (n) => shop.paid(n),
        );
        const [settled, refunds] = await Promise.all([
          inBatches(secondWave, 8, (id) => shop.settleOnBoth(id)),
          inBatches(bought, 8, (id, n) => shop.refund(n, id!, 3000 + n)),
        ]);
        expect(settled.every(Boolean)).toBe(true);
        expect(refunds.map((r) => r.status)).toEqual(Array(30).fill(200));
        expect(await sequences(shop.db, 'invoice')).toEqual(oneTo(60));
        expect(await sequences(shop.db, 'credit-note')).toEqual(oneTo(30));

        // Then 20 of the second wave are refunded in full, each on the instance that did not settle it.
        const full = await Promise.all(settled.slice(0, 20).map((id, n) => shop.refund(n + 1, id!, 11_900)));
        expect(full.map((r) => r.status)).toEqual(Array(20).fill(200));
        expect(await sequences(shop.db, 'credit-note')).toEqual(oneTo(50));
        expect(await shop.db('invoiceCounters').orderBy('kind').select('kind', 'last')).toEqual([
          { kind: 'credit-note', last: 50 },
          { kind: 'invoice', last: 60 },
        ]);
        // Each charge its invoice, each refund its credit note with its tax, the payer's; tax collected = reported.
        const totals = await expectTaxInvariants(shop.db);
        expect(totals.collected.eur).toBeGreaterThan(0);
      } finally {
        await shop.drop();
      }
    });

    it('keeps credit notes gap-free and adding up when two refunds of one purchase race on the two instances', async () => {
      const shop = await twoInstances();
      try {
        const paid = await inBatches(
          Array.from({ length: 15 }, (_, n) => n),
          5,
          (n) => shop.paid(n),
        );
        const bought = await Promise.all(paid.map((id) => shop.settleOnBoth(id)));
        const refunds = await Promise.all(
          bought.flatMap((id, n) => [shop.refund(n, id!, 3000), shop.refund(n + 1, id!, 2000)]),
        );
        expect(refunds.map((r) => r.status)).toEqual(Array(30).fill(200));
        const notes = await sequences(shop.db, 'credit-note');
        expect(notes).toEqual(oneTo(notes.length));
        // Every charge's notes add up to the 5000 refunded, their tax to the refunded tax (in proportion).
        await expectTaxInvariants(shop.db);
        expect(await shop.db('merchantCharges').where({ refundAmount: 5000 }).count({ n: '*' }).first()).toEqual({
          n: 15,
        });
      } finally {
        await shop.drop();
      }
    });

    it('leaves no gap when a settlement fails after numbering its invoice, and numbers it next when it settles', async () => {
      const shop = await twoInstances();
      try {
        const failing = await createProduct(shop.db, { name: 'Failing Course', unitAmount: 4900, currency: 'eur' });
        // The invoice is the settlement's last write: failing right after it is numbered rolls the number back.
        await shop.db.raw(`
          CREATE FUNCTION fail_settlement() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            IF EXISTS (SELECT 1 FROM purchases p
                        WHERE p.merchant_charge_id = NEW.merchant_charge_id AND p.product_id = '${failing.id}')
            THEN RAISE EXCEPTION 'the settlement fails after its invoice'; END IF;
            RETURN NEW;
          END $$;
          CREATE TRIGGER fail_settlement AFTER INSERT ON invoices FOR EACH ROW EXECUTE FUNCTION fail_settlement();
        `);
        const unlucky = await shop.paid(100, failing.id);
        const others = await inBatches(
          Array.from({ length: 10 }, (_, n) => n),
          5,
          (n) => shop.paid(n),
        );
        const [failed, ...settled] = await Promise.all([unlucky, ...others].map((id) => shop.settleOnBoth(id)));
        expect(failed).toBeUndefined();
        expect(settled.every(Boolean)).toBe(true);
        expect(await shop.db('checkouts').where({ id: unlucky }).first('status')).toEqual({ status: 'open' });
        expect(await sequences(shop.db, 'invoice')).toEqual(oneTo(10));
        expect((await shop.db('invoiceCounters').where({ kind: 'invoice' }).first('last')).last).toBe(10);

        await shop.db.raw('DROP TRIGGER fail_settlement ON invoices; DROP FUNCTION fail_settlement()');
        expect(await shop.settleOnBoth(unlucky)).toBeDefined();
        const invoice = await shop
          .db('invoices as i')
          .join('purchases as p', 'p.merchantChargeId', 'i.merchantChargeId')
          .where('p.productId', failing.id)
          .first('i.sequence');
        expect(invoice.sequence).toBe(11);
        await expectTaxInvariants(shop.db);
      } finally {
        await shop.drop();
      }
    });
  });
});
