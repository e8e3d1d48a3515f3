import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import pg from 'pg';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PROJECT_ROOT } from '../../api/src/config';
import { createDb, type Db } from '../../api/src/db/connection';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../api/src/db/embedded';
import { migrateLatest } from '../../api/src/db/migrations';
import { Coupon } from '../support/models';
import { createLogger } from '../../api/src/logger';
import { createCoupon, createProduct } from '../../seeds/factories';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { startStripeStandIn, type StandIn } from '../support/stripe-stand-in';
import { count, expectFulfilledOnce, inBatches, pause, stripeShop, type StripeShop } from './harness';

/**
 * A shop with a limited product and a limited coupon, N checkouts paid at Stripe (half with the coupon), whose
 * completed events are then delivered under a fault. Afterwards: every paid checkout fulfilled exactly once, the
 * seats and the coupon's uses counted right.
 */
async function paidRush(
  db: Db,
  shop: StripeShop,
  label: string,
  { checkouts, seats, couponUses }: { checkouts: number; seats: number; couponUses: number },
) {
  const product = await createProduct(db, { name: `${label} Workshop`, unitAmount: 10_000, quantityAvailable: seats });
  const code = `${label.replace(/\W/g, '').toUpperCase()}HALF`;
  const coupon = await createCoupon(db, { code, percentageDiscount: 0.5, maxUses: couponUses });
  const paid = await inBatches(
    Array.from({ length: checkouts }, (_, i) => i),
    6,
    (i) =>
      shop.paidCheckout({
        productId: product.id,
        email: `${label.toLowerCase().replace(/\W/g, '-')}-${i}@example.com`,
        ...(i % 2 === 0 && { coupon: code }),
      }),
  );
  return { product, coupon, paid };
}

async function expectRushSettled(db: Db, stripe: StandIn, rush: Awaited<ReturnType<typeof paidRush>>, seats: number) {
  const purchases = await expectFulfilledOnce(db, stripe, rush.paid);
  const valid = purchases.filter((p) => p.status === 'Valid');
  expect(valid).toHaveLength(Math.min(seats, rush.paid.length));
  expect(purchases.filter((p) => p.status === 'Refunded')).toHaveLength(Math.max(0, rush.paid.length - seats));
  // A use is counted for each fulfilled purchase with the coupon; a sold-out refund gives its use back.
  expect((await Coupon.query(db).findById(rush.coupon.id))!.usedCount).toBe(
    valid.filter((p) => p.couponId === rush.coupon.id).length,
  );
  for (const purchase of purchases.filter((p) => p.status === 'Refunded')) {
    const charge = await db('merchantCharges').where({ id: purchase.merchantChargeId }).first();
    expect(charge.refundAmount).toBe(charge.amount);
    expect(
      [...stripe.objects.values()].filter((o) => o.object === 'refund' && o.charge === charge.identifier),
    ).toHaveLength(1);
  }
  const split = await db('merchantCharges')
    .whereIn(
      'id',
      purchases.map((p) => p.merchantChargeId),
    )
    .select('id', 'net', 'refundAmount');
  expect(split).toHaveLength(rush.paid.length);
  return purchases;
}

/** Delivers each completed event (two copies, as Stripe sometimes does) until accepted, staggered over `spreadMs`. */
async function deliverAll(shop: StripeShop, paid: Awaited<ReturnType<typeof paidRush>>['paid'], spreadMs: number) {
  const statuses = await Promise.all(
    paid.flatMap(({ completed }, i) =>
      [0, 1].map(async (copy) => {
        await pause(((i * 2 + copy) * spreadMs) / (paid.length * 2));
        return shop.deliverUntilAccepted(completed, { pauseMs: 100 });
      }),
    ),
  );
  return {
    deliveries: statuses.length,
    redelivered: statuses.filter((s) => s.length > 1).length,
    failures: statuses.flat().filter((s) => s === 0 || s >= 500).length,
  };
}

describe('faults', () => {
  let stripe: StandIn;

  beforeAll(async () => {
    stripe = await startStripeStandIn();
  });
  afterAll(() => stripe?.close());

  describe('database connections killed during fulfilment', () => {
    const database = useTestDatabase();
    const db = () => database().db;
    const shop = stripeShop(db, () => stripe);

    it('fulfils every paid checkout exactly once after Stripe redelivers what failed', async () => {
      const rush = await paidRush(db(), shop, 'Killed', { checkouts: 40, seats: 30, couponUses: 25 });

      // From a connection of its own, end every other backend of the test database, again and again.
      const killer = new pg.Client({ connectionString: database().url, application_name: 'reliability-killer' });
      await killer.connect();
      let killing = true;
      let kills = 0;
      const loop = (async () => {
        while (killing) {
          const { rows } = await killer.query<{ n: number }>(
            `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
              WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
          );
          kills += rows[0]!.n;
          await pause(20 + Math.random() * 60);
        }
      })();
      const quiet = quietKnex();
      const delivering = deliverAll(shop, rush.paid, 2_500);
      // The thank-you page polls meanwhile; whatever it answers, it must not break fulfilment.
      const polling = Promise.all(
        rush.paid.map(
          async ({ checkoutId }, i) => (
            await pause(i * 60),
            shop.thanks(checkoutId).then(
              (a) => a.status,
              () => 0,
            )
          ),
        ),
      );
      await pause(3_500);
      killing = false;
      await loop;
      await killer.end();
      const outcome = await delivering;
      const polls = await polling;
      quiet.mockRestore();

      console.info('connections killed during fulfilment:', { kills, ...outcome, pollStatuses: [...new Set(polls)] });
      expect(kills).toBeGreaterThan(0);
      expect(outcome.failures).toBeGreaterThan(0); // the fault did hit fulfilment
      expect(polls.every((s) => s === 200 || s >= 500)).toBe(true);
      await expectRushSettled(db(), stripe, rush, 30);
      expect(
        await count(
          db()('merchantEvents')
            .whereIn(
              'identifier',
              rush.paid.map((p) => p.completed.id),
            )
            .whereNotNull('processedAt'),
        ),
      ).toBe(40);
    });
  });

  describe('PostgreSQL restarted while webhooks arrive', () => {
    const dir = path.join(PROJECT_ROOT, '.data', `reliability-postgres-${process.pid}`);
    const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'warn');
    let port: number;
    let server: EmbeddedDatabase | undefined;
    let db: Db | undefined;

    const start = async () => (server = await startEmbeddedPostgres({ dir, port, database: 'reliability', logger }));

    beforeAll(async () => {
      // A free port below the ephemeral range, so no outgoing connection of the parallel test files takes it
      // (before the first start or while the server is down); another one if it is taken all the same.
      for (let attempt = 1; ; attempt++) {
        port = await freePort(20_000 + Math.floor(Math.random() * 12_000));
        try {
          await start();
          break;
        } catch (error) {
          if (attempt >= 3) throw error;
        }
      }
      db = createDb(server!.url);
      await migrateLatest(db);
    });
    afterAll(async () => {
      await db?.destroy();
      await server?.stop();
      await rm(dir, { recursive: true, force: true });
      await rm(`${dir}.owner.json`, { force: true });
    });

    it('fulfils every paid checkout exactly once after the server comes back and Stripe redelivers', async () => {
      const shop = stripeShop(
        () => db!,
        () => stripe,
      );
      const rush = await paidRush(db!, shop, 'Restarted', { checkouts: 30, seats: 24, couponUses: 20 });

      const quiet = quietKnex();
      const delivering = deliverAll(shop, rush.paid, 1_500);
      await pause(300); // deliveries are in flight
      await server!.stop();
      await pause(700); // down for a while: deliveries fail and are retried
      for (let attempt = 1; ; attempt++) {
        try {
          await start();
          break;
        } catch (error) {
          if (attempt >= 3) throw error;
          await pause(500);
        }
      }
      const outcome = await delivering.finally(() => quiet.mockRestore());

      console.info('PostgreSQL restarted during fulfilment:', outcome);
      expect(outcome.failures).toBeGreaterThan(0);
      await expectRushSettled(db!, stripe, rush, 24);
    });
  });

  describe('Stripe answering 500s and timing out', () => {
    const database = useTestDatabase();
    const db = () => database().db;
    // A short SDK timeout, so that a held answer makes it give up and retry within the test.
    const shop = stripeShop(db, () => stripe, { STRIPE_TIMEOUT_MS: '400' });
    let support: SignedIn;

    beforeAll(async () => {
      support = await signedIn(db(), ['support']);
    });

    const requestsSince = (mark: number, template: string) =>
      stripe.requests.slice(mark).filter((r) => r.template === template);
    const sessionsOf = (checkoutId: string) =>
      [...stripe.objects.values()].filter(
        (o) => o.object === 'checkout.session' && o.client_reference_id === checkoutId,
      );
    const refundsOf = (chargeIdentifier: string) =>
      [...stripe.objects.values()].filter((o) => o.object === 'refund' && o.charge === chargeIdentifier);
    const refund = (purchaseId: string, body: object) =>
      as(support, request(shop.handler()).post(`/api/admin/purchases/${purchaseId}/refund`)).send(body);
    async function bought(email: string) {
      const course = await createProduct(db(), { name: `Course for ${email}`, unitAmount: 8000 });
      const paid = await shop.paidCheckout({ productId: course.id, email });
      expect((await shop.deliver(paid.completed)).status).toBe(200);
      const purchase = await db()('purchases')
        .where({ id: (await shop.thanks(paid.checkoutId)).body.purchaseId })
        .first();
      const charge = await db()('merchantCharges').where({ id: purchase.merchantChargeId }).first();
      return { ...paid, purchase, charge };
    }

    it('creates one Checkout Session when Stripe answers 500 twice, or holds its answer past the timeout', async () => {
      const course = await createProduct(db(), { name: 'Flaky Stripe Course', unitAmount: 6000 });
      for (const fault of ['500', 'timeout'] as const) {
        const mark = stripe.requests.length;
        if (fault === '500') stripe.failNext('POST /v1/checkout/sessions', 2);
        else stripe.delayNext('POST /v1/checkout/sessions', 1_500);
        const created = await shop.checkout({ productId: course.id, email: `flaky-${fault}@example.com` });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        const tries = requestsSince(mark, 'POST /v1/checkout/sessions');
        expect(tries.length).toBeGreaterThanOrEqual(2);
        expect(new Set(tries.map((t) => t.idempotencyKey))).toEqual(new Set([`checkout-${created.body.checkoutId}`]));
        expect(sessionsOf(created.body.checkoutId)).toHaveLength(1);
        expect(
          await count(
            db()('merchantSessions')
              .join('checkouts', 'checkouts.merchantSessionId', 'merchantSessions.id')
              .where('checkouts.id', created.body.checkoutId),
          ),
        ).toBe(1);
      }
    });

    it('answers 502 when every try fails, and the next attempt succeeds with nothing doubled', async () => {
      const course = await createProduct(db(), { name: 'Down Stripe Course', unitAmount: 6000 });
      stripe.failNext('POST /v1/checkout/sessions', 3);
      const down = await shop.checkout({ productId: course.id, email: 'down@example.com' });
      expect(down.status).toBe(502);
      expect(down.body.code).toBe('payment-provider-unavailable');
      const sessionsFor = (email: string) =>
        [...stripe.objects.values()].filter((o) => o.object === 'checkout.session' && o.customer_email === email);
      expect(sessionsFor('down@example.com')).toHaveLength(0);
      expect(await db()('checkouts').where({ buyerEmail: 'down@example.com' }).select('status')).toEqual([
        { status: 'canceled' },
      ]);
      const again = await shop.checkout({ productId: course.id, email: 'down@example.com' });
      expect(again.status).toBe(201);
      expect(sessionsOf(again.body.checkoutId)).toHaveLength(1);
      expect(sessionsFor('down@example.com')).toHaveLength(1);
    });

    it('refunds once from the console when Stripe answers 500s or times out, retried with one idempotency key', async () => {
      for (const fault of ['500', 'timeout'] as const) {
        const { purchase, charge } = await bought(`refund-${fault}@example.com`);
        const mark = stripe.requests.length;
        if (fault === '500') stripe.failNext('POST /v1/refunds', 2);
        else stripe.delayNext('POST /v1/refunds', 1_500);
        const answer = await refund(purchase.id, {
          amount: 3000,
          reasonCode: 'customer-request',
          reason: `partial through a ${fault}`,
        });
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        expect(answer.body.data).toMatchObject({ refundAmount: 3000, full: false });
        const tries = requestsSince(mark, 'POST /v1/refunds');
        expect(tries.length).toBeGreaterThanOrEqual(2);
        expect(new Set(tries.map((t) => t.idempotencyKey)).size).toBe(1);
        expect(refundsOf(charge.identifier)).toHaveLength(1);
        expect(stripe.objects.get(charge.identifier)).toMatchObject({ amount_refunded: 3000 });
        expect(await db()('merchantRefunds').where({ merchantChargeId: charge.id }).select('status', 'amount')).toEqual(
          [{ status: 'succeeded', amount: 3000 }],
        );
        expect((await db()('merchantCharges').where({ id: charge.id }).first()).refundAmount).toBe(3000);
      }
    });

    it('refunds once when every try timed out after Stripe acted and the operator clicks again', async () => {
      const { purchase, charge } = await bought('refund-lost-answer@example.com');
      const mark = stripe.requests.length;
      stripe.delayNext('POST /v1/refunds', 1_500, 3); // the first try and the SDK's two retries
      const lost = await refund(purchase.id, { reasonCode: 'customer-request', reason: 'the answer got lost' });
      expect(lost.status).toBe(502);
      expect(lost.body.code).toBe('payment-provider-unavailable');
      // Stripe did refund; we do not know it yet.
      expect(refundsOf(charge.identifier)).toHaveLength(1);
      const again = await refund(purchase.id, { reasonCode: 'customer-request', reason: 'the answer got lost' });
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(again.body.data).toMatchObject({ full: true });
      const tries = requestsSince(mark, 'POST /v1/refunds');
      expect(tries).toHaveLength(4);
      expect(new Set(tries.map((t) => t.idempotencyKey)).size).toBe(1);
      expect(refundsOf(charge.identifier)).toHaveLength(1);
      expect(stripe.objects.get(charge.identifier)).toMatchObject({ refunded: true, amount_refunded: charge.amount });
      expect(await db()('purchases').where({ id: purchase.id }).first('status')).toEqual({ status: 'Refunded' });
      expect(await count(db()('merchantRefunds').where({ merchantChargeId: charge.id, status: 'succeeded' }))).toBe(1);
      expect(
        await count(db()('outboxEmails').where({ toAddress: 'refund-lost-answer@example.com', kind: 'refund' })),
      ).toBe(1);
    });

    it('fulfils once when reading the session fails or times out: the webhook answers 5xx and the redelivery succeeds', async () => {
      const course = await createProduct(db(), { name: 'Slow Read Course', unitAmount: 7000 });
      const paid = [];
      for (const email of ['read-500@example.com', 'read-timeout@example.com', 'read-down@example.com'])
        paid.push(await shop.paidCheckout({ productId: course.id, email }));
      stripe.failNext('GET /v1/checkout/sessions/:id', 2); // retried by the SDK within one delivery
      expect((await shop.deliver(paid[0]!.completed)).status).toBe(200);
      stripe.delayNext('GET /v1/checkout/sessions/:id', 1_500);
      expect((await shop.deliver(paid[1]!.completed)).status).toBe(200);
      stripe.failNext('GET /v1/checkout/sessions/:id', 3); // every try fails: Stripe must redeliver
      const statuses = await shop.deliverUntilAccepted(paid[2]!.completed);
      expect(statuses[0]).toBeGreaterThanOrEqual(500);
      expect(statuses.at(-1)).toBe(200);
      await expectFulfilledOnce(db(), stripe, paid);
    });

    it('refunds a sold-out payment once when the refund times out during fulfilment', async () => {
      const limited = await createProduct(db(), {
        name: 'One Seat Timeout Workshop',
        unitAmount: 9000,
        quantityAvailable: 1,
      });
      const first = await shop.paidCheckout({ productId: limited.id, email: 'seat-holder@example.com' });
      const second = await shop.paidCheckout({ productId: limited.id, email: 'seat-loser@example.com' });
      expect((await shop.deliver(first.completed)).status).toBe(200);
      const mark = stripe.requests.length;
      stripe.delayNext('POST /v1/refunds', 1_500, 3); // every try of the first delivery times out
      const statuses = await shop.deliverUntilAccepted(second.completed, { pauseMs: 200 });
      expect(statuses[0]).toBeGreaterThanOrEqual(500);
      const tries = requestsSince(mark, 'POST /v1/refunds');
      expect(tries.length).toBeGreaterThanOrEqual(4);
      expect(new Set(tries.map((t) => t.idempotencyKey))).toEqual(new Set([`sold-out-${second.checkoutId}`]));
      const purchases = await expectFulfilledOnce(db(), stripe, [first, second]);
      const lost = purchases.find((p) => p.status === 'Refunded')!;
      const charge = await db()('merchantCharges').where({ id: lost.merchantChargeId }).first();
      expect(refundsOf(charge.identifier)).toHaveLength(1);
      expect(charge.refundAmount).toBe(charge.amount);
    });
  });
});

/** `candidate` if nothing listens on it, else the next free one. */
async function freePort(candidate: number): Promise<number> {
  for (let port = candidate; ; port++) {
    if (await canListen(port)) return port;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, 'localhost', () => {
      probe.close(() => resolve(true));
    });
  });
}

/** knex logs each broken or refused connection (with its stack) on the console: expected here, and noisy. */
function quietKnex() {
  const log = console.log;
  return vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    const text = String(args[0]);
    if (!text.includes('Acquire connection error') && !text.includes('Connection Error:')) log(...args);
  });
}
