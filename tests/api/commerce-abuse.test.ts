import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { CHECKOUT_MINUTES } from '../../api/src/commerce/checkout/checkout';
import { COMMERCE_LIMITS } from '../../api/src/commerce/checkout/limits';
import type { Db } from '../../api/src/db/connection';
import { Coupon } from '../support/models';
import { createServices, type Services } from '../../api/src/services';
import { createCoupon, createProduct } from '../../seeds/factories';
import { testConfig, testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { boughtWithTestProvider, sessionOfCheckout } from '../support/checkout';
import { manualClock, onTheHour } from '../support/clock';
import { useTestDatabase } from '../support/db';
import { standInEnv, startStripeStandIn, type StandIn, deliverSigned } from '../support/stripe-stand-in';

/**
 * Security issue 14, point 3: checkout starts, coupon codes tried in quotes and transfer offers are limited (per
 * address, per email, per owner; shared through PostgreSQL; 429 with Retry-After); a checkout left unpaid ends after
 * 30 minutes at either provider and gives its reserved coupon use back, exactly once, whatever a payment at the same
 * moment does; and a buyer who is not signed in hears one answer for every kind of bad coupon code.
 *
 * The servers here run the real limits (COMMERCE_LIMIT_SCALE 1) behind one trusted proxy, so each request says its
 * client address in X-Forwarded-For. The clock starts on the hour: the limits' fixed windows start with it.
 */

const MINUTE = 60_000;

type App = ReturnType<ReturnType<typeof createApp>['callback']>;

function world(
  clock: ReturnType<typeof manualClock>,
  db: Db,
  env: Record<string, string> = {},
): { services: Services; app: App } {
  const deps = testDeps(db, { clock, config: testConfig({ COMMERCE_LIMIT_SCALE: '1', TRUST_PROXY: 'true', ...env }) });
  const services = createServices(deps);
  return { services, app: createApp(deps, { services }).callback() };
}

/** Seconds from the clock to the end of the current fixed window of this size. */
const toWindowEnd = (clock: { now(): Date }, windowSeconds: number) => {
  const now = clock.now().getTime();
  return Math.ceil(((Math.floor(now / (windowSeconds * 1000)) + 1) * windowSeconds * 1000 - now) / 1000);
};

const count = async (query: import('knex').Knex.QueryBuilder) => Number((await query.count({ n: '*' }))[0]!.n);
const usedCount = async (db: Db, couponId: string) => (await Coupon.query(db).findById(couponId))!.usedCount;

describe('commerce abuse: limits, coupon reservations that expire, one answer for bad codes (test provider)', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const clock = manualClock(onTheHour());
  let services: Services;
  let app: App;
  let course: { id: string };

  beforeAll(async () => {
    ({ services, app } = world(clock, db()));
    course = await createProduct(db(), { name: 'Abuse Course', unitAmount: 5000 });
  });

  const start = (body: object, ip: string, who?: SignedIn) =>
    as(who, request(app).post('/api/store/checkout')).set('X-Forwarded-For', ip).send(body);
  const quote = (query: Record<string, string>, ip: string, who?: SignedIn) =>
    as(who, request(app).get(`/api/store/products/${course.id}/quote`))
      .set('X-Forwarded-For', ip)
      .query(query);
  const thanks = (checkoutId: string) => request(app).get(`/api/store/checkouts/${checkoutId}`);

  it('refuses the 11th checkout start from one address in 10 minutes with 429 and Retry-After, before any work', async () => {
    const { max, windowSeconds } = COMMERCE_LIMITS.checkoutPerIp;
    expect(max).toBe(10);
    for (let i = 0; i < max; i++)
      expect((await start({ productId: course.id, email: `ip-buyer-${i}@example.com` }, '198.51.100.1')).status).toBe(
        201,
      );
    const sessionsBefore = await count(db()('testProviderSessions'));
    const refused = await start({ productId: course.id, email: 'ip-buyer-extra@example.com' }, '198.51.100.1');
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('rate-limited');
    expect(refused.headers['retry-after']).toBe(String(toWindowEnd(clock, windowSeconds)));
    // Nothing was recorded or asked of the provider for it.
    expect(await count(db()('checkouts').where({ buyerEmail: 'ip-buyer-extra@example.com' }))).toBe(0);
    expect(await count(db()('testProviderSessions'))).toBe(sessionsBefore);
    // Another address is not affected; the same one is again once the window has passed.
    expect((await start({ productId: course.id, email: 'ip-buyer-other@example.com' }, '198.51.100.2')).status).toBe(
      201,
    );
    clock.advance(windowSeconds * 1000);
    expect((await start({ productId: course.id, email: 'ip-buyer-later@example.com' }, '198.51.100.1')).status).toBe(
      201,
    );
  });

  it('refuses the 6th checkout start for one email from rotating addresses out or signed in', async () => {
    const { max } = COMMERCE_LIMITS.checkoutPerBuyer;
    expect(max).toBe(5);
    for (let i = 0; i < max; i++)
      expect((await start({ productId: course.id, email: 'Rotating@Example.com' }, `203.0.113.${i + 1}`)).status).toBe(
        201,
      );
    const refused = await start({ productId: course.id, email: 'rotating@example.com' }, '203.0.113.99');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(await count(db()('checkouts').where({ buyerEmail: 'rotating@example.com' }))).toBe(max);

    // A signed-in buyer counts as their account (team buyers retrying stay well under it): guests naming their email
    // use up nothing of theirs.
    const buyer = await signedIn(db());
    for (let i = 0; i < max; i++)
      expect((await start({ productId: course.id, email: buyer.user.email }, `203.0.115.${i + 1}`)).status).toBe(201);
    for (let i = 0; i < max; i++)
      expect((await start({ productId: course.id, quantity: 5 }, `203.0.114.${i + 1}`, buyer)).status).toBe(201);
    expect((await start({ productId: course.id, quantity: 6 }, '203.0.114.99', buyer)).status).toBe(429);
  });

  it('counts an IPv6 client by its /64: rotating addresses inside it does not get past the limit', async () => {
    const { max } = COMMERCE_LIMITS.checkoutPerIp;
    for (let i = 0; i < max; i++)
      expect(
        (await start({ productId: course.id, email: `v6-${i}@example.com` }, `2001:db8:1:2::${(i + 1).toString(16)}`))
          .status,
      ).toBe(201);
    expect(
      (await start({ productId: course.id, email: 'v6-extra@example.com' }, '2001:db8:1:2:ffff:ffff:ffff:1')).status,
    ).toBe(429);
    expect((await start({ productId: course.id, email: 'v6-next@example.com' }, '2001:db8:1:3::1')).status).toBe(201);
  });

  it('lets exactly the limit through from a parallel burst of 30 starts from one address', async () => {
    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        start({ productId: course.id, email: `burst-${i}@example.com` }, '192.0.2.50'),
      ),
    );
    expect(burst.filter((a) => a.status === 201)).toHaveLength(COMMERCE_LIMITS.checkoutPerIp.max);
    expect(burst.filter((a) => a.status === 429)).toHaveLength(30 - COMMERCE_LIMITS.checkoutPerIp.max);
    expect(await count(db()('checkouts').where({ ipAddress: '192.0.2.50' }))).toBe(COMMERCE_LIMITS.checkoutPerIp.max);
  });

  it('refuses the 61st quote naming a coupon code from one address in a minute; quotes without a code are not counted', async () => {
    const { max, windowSeconds } = COMMERCE_LIMITS.couponQuotePerIp;
    expect(max).toBe(60);
    const probes = await Promise.all(
      Array.from({ length: max }, (_, i) => quote({ coupon: `GUESS${i}` }, '192.0.2.60')),
    );
    expect(probes.map((p) => p.status)).toEqual(Array(max).fill(200));
    const refused = await quote({ coupon: 'GUESS-EXTRA' }, '192.0.2.60');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe(String(toWindowEnd(clock, windowSeconds)));
    expect((await quote({}, '192.0.2.60')).status).toBe(200);
    expect((await quote({ coupon: 'GUESS-ELSEWHERE' }, '192.0.2.61')).status).toBe(200);
  });

  it('answers a signed-out caller identically for unknown, expired, inactive, used-up and other-course codes', async () => {
    const other = await createProduct(db(), { name: 'Another Course', unitAmount: 7000 });
    await createCoupon(db(), {
      code: 'PASTDATE',
      percentageDiscount: 0.5,
      expires: new Date(clock.now().getTime() - MINUTE),
    });
    await createCoupon(db(), { code: 'SWITCHEDOFF', percentageDiscount: 0.5, status: 'inactive' });
    await createCoupon(db(), { code: 'ALLGONE', percentageDiscount: 0.5, maxUses: 1 }).then((c) =>
      Coupon.query(db()).patch({ usedCount: 1 }).where({ id: c.id }),
    );
    await createCoupon(db(), { code: 'OTHERCOURSE', percentageDiscount: 0.5, restrictedToProductId: other.id });
    const bad = {
      NEVERISSUED: 'coupon-not-found',
      PASTDATE: 'coupon-expired',
      SWITCHEDOFF: 'coupon-inactive',
      ALLGONE: 'coupon-used-up',
      OTHERCOURSE: 'coupon-not-valid-for-product',
    };

    const anonymous = [];
    for (const code of Object.keys(bad)) anonymous.push(await quote({ coupon: code }, '192.0.2.70'));
    for (const answer of anonymous) {
      expect(answer.status).toBe(200);
      const { coupon, ...rest } = answer.body;
      expect({ ...coupon, code: 'X' }).toEqual({
        code: 'X',
        problem: 'coupon-not-valid',
        message: 'This code is not valid.',
      });
      expect(rest).toEqual((({ coupon: _, ...first }) => first)(anonymous[0]!.body));
    }
    // Starting a checkout with them says the same.
    const starts = [];
    for (const [i, code] of Object.keys(bad).entries())
      starts.push(await start({ productId: course.id, coupon: code, email: `probe-${i}@example.com` }, '192.0.2.71'));
    for (const answer of starts) {
      expect(answer.status).toBe(400);
      expect((({ requestId: _, ...body }) => body)(answer.body)).toEqual({
        code: 'coupon-not-valid',
        message: 'This code is not valid.',
        errors: { coupon: 'This code is not valid.' },
      });
    }
    // Signed in, the reason is given.
    const learner = await signedIn(db());
    for (const [code, problem] of Object.entries(bad))
      expect((await quote({ coupon: code }, '192.0.2.72', learner)).body.coupon.problem).toBe(problem);
  });

  it('gives the uses of a limited coupon reserved by two abandoned checkouts back once 30 minutes pass', async () => {
    const coupon = await createCoupon(db(), { code: 'TWOUSES', percentageDiscount: 0.25, maxUses: 2 });
    const abandoned = [];
    for (const n of [1, 2]) {
      const started = await start(
        { productId: course.id, coupon: 'TWOUSES', email: `abandon-${n}@example.com` },
        '192.0.2.80',
      );
      expect(started.status).toBe(201);
      abandoned.push(started.body.checkoutId as string);
    }
    expect(await usedCount(db(), coupon.id)).toBe(2);
    expect(
      (await start({ productId: course.id, coupon: 'TWOUSES', email: 'waiting@example.com' }, '192.0.2.81')).body.code,
    ).toBe('coupon-not-valid');

    clock.advance((CHECKOUT_MINUTES - 1) * MINUTE);
    await services.checkouts.expireAbandoned(); // earlier tests' checkouts are due; these two are not yet
    expect(await usedCount(db(), coupon.id)).toBe(2);
    for (const checkoutId of abandoned) expect((await thanks(checkoutId)).body.status).toBe('open');

    clock.advance(2 * MINUTE);
    expect(await services.checkouts.expireAbandoned()).toBeGreaterThanOrEqual(2); // and the earlier tests' left open
    expect(await usedCount(db(), coupon.id)).toBe(0);
    for (const checkoutId of abandoned) {
      expect((await thanks(checkoutId)).body.status).toBe('canceled');
      // The provider's page no longer takes the payment.
      const session = await sessionOfCheckout(db(), checkoutId);
      expect(await db()('testProviderSessions').where({ identifier: session }).first('status')).toEqual({
        status: 'canceled',
      });
      await request(app).post(`/test-provider/checkout/${session}/pay`);
      expect((await thanks(checkoutId)).body.status).toBe('canceled');
    }
    expect(await count(db()('purchases').where({ couponId: coupon.id }))).toBe(0);
    expect(await usedCount(db(), coupon.id)).toBe(0);
    // Usable again, and a second sweep gives nothing back twice.
    expect((await quote({ coupon: 'TWOUSES' }, '192.0.2.82')).body.coupon.problem).toBeNull();
    expect(
      (await start({ productId: course.id, coupon: 'TWOUSES', email: 'waiting@example.com' }, '192.0.2.81')).status,
    ).toBe(201);
    expect(await services.checkouts.expireAbandoned()).toBe(0);
    expect(await usedCount(db(), coupon.id)).toBe(1);
  });

  it('lets one buyer hold one use of a limited coupon (starting again moves it) and one address hold three at a time', async () => {
    const coupon = await createCoupon(db(), { code: 'SQUAT', percentageDiscount: 0.25, maxUses: 10 });
    const body = (email: string) => ({ productId: course.id, coupon: 'SQUAT', email });

    // The same buyer starting again, from anywhere, signed in or not: still one use held, by the newest checkout.
    const first = await start(body('again@example.com'), '192.0.2.90');
    const second = await start(body('AGAIN@example.com'), '192.0.2.91');
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(await usedCount(db(), coupon.id)).toBe(1);
    const holds = async () =>
      db()('checkouts').where({ couponId: coupon.id, status: 'open', couponReserved: true }).pluck('id');
    expect(await holds()).toEqual([second.body.checkoutId]);
    // The earlier checkout can still be paid (it counts its use then); canceled, it gives back nothing it no longer holds.
    await services.testProvider.cancel(await sessionOfCheckout(db(), first.body.checkoutId));
    expect((await thanks(first.body.checkoutId)).body.status).toBe('canceled');
    expect(await usedCount(db(), coupon.id)).toBe(1);

    // Made-up addresses from one address: three uses held at a time, then 429 until one of them ends.
    const squatter = '198.51.100.77';
    const squatted = [];
    for (const n of [1, 2, 3]) {
      const started = await start(body(`made-up-${n}@example.com`), squatter);
      expect(started.status).toBe(201);
      squatted.push(started.body.checkoutId as string);
    }
    const refused = await start(body('made-up-4@example.com'), squatter);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('rate-limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(CHECKOUT_MINUTES * 60);
    expect(await usedCount(db(), coupon.id)).toBe(4); // nothing taken by the refused start
    // Someone elsewhere is not held back; and once one of the squatter's checkouts ends, the address may hold another.
    expect((await start(body('elsewhere@example.com'), '203.0.113.9')).status).toBe(201);
    await services.testProvider.cancel(await sessionOfCheckout(db(), squatted[0]!));
    await thanks(squatted[0]!);
    expect((await start(body('made-up-5@example.com'), squatter)).status).toBe(201);
    expect(await usedCount(db(), coupon.id)).toBe(5);

    // A burst of starts by one buyer at once still holds one use (the coupon's row lock orders them).
    const burst = await Promise.all(
      ['192.0.2.101', '192.0.2.102', '192.0.2.103', '192.0.2.104'].map((ip) => start(body('burst@example.com'), ip)),
    );
    expect(burst.map((b) => b.status)).toEqual([201, 201, 201, 201]);
    expect(await usedCount(db(), coupon.id)).toBe(6);
    const buyersHolds = await db()('checkouts').where({
      couponId: coupon.id,
      buyerEmail: 'burst@example.com',
      status: 'open',
      couponReserved: true,
    });
    expect(buyersHolds).toHaveLength(1);
  });

  it('settles the expiry sweep racing a payment cleanly in both orders, and when they overlap (20 races)', async () => {
    const coupon = await createCoupon(db(), { code: 'RACING', percentageDiscount: 0.25, maxUses: 100 });
    const begin = async (email: string) => {
      const { checkoutId } = await services.checkouts.create({
        productId: course.id,
        quantity: 1,
        team: false,
        ppp: false,
        couponCode: 'RACING',
        email,
        buyer: null,
        country: 'US',
        ip: null,
      });
      return { checkoutId, session: await sessionOfCheckout(db(), checkoutId) };
    };
    const payAndSettle = (session: string) => request(app).post(`/test-provider/checkout/${session}/pay`);

    // Paid first, swept after: the payment stands and keeps its use.
    const paidFirst = await begin('paid-first@example.com');
    clock.advance((CHECKOUT_MINUTES + 1) * MINUTE);
    await services.testProvider.pay(paidFirst.session); // paid at the provider; no webhook or thank-you page yet
    await services.checkouts.expireAbandoned();
    expect((await thanks(paidFirst.checkoutId)).body.status).toBe('fulfilled');
    expect(await usedCount(db(), coupon.id)).toBe(1);

    // Swept first, paid after: nothing is charged and the use is back.
    const sweptFirst = await begin('swept-first@example.com');
    clock.advance((CHECKOUT_MINUTES + 1) * MINUTE);
    await services.checkouts.expireAbandoned();
    await payAndSettle(sweptFirst.session);
    expect((await thanks(sweptFirst.checkoutId)).body.status).toBe('canceled');
    expect(
      await db()('testProviderSessions').where({ identifier: sweptFirst.session }).first('status', 'chargeIdentifier'),
    ).toEqual({
      status: 'canceled',
      chargeIdentifier: null,
    });
    expect(await usedCount(db(), coupon.id)).toBe(1);

    // Overlapping: each race ends either paid and fulfilled with its use, or canceled with its use back; never both.
    const outcomes: Record<string, number> = { fulfilled: 0, canceled: 0 };
    for (let n = 0; n < 20; n++) {
      const race = await begin(`overlap-${n}@example.com`);
      clock.advance((CHECKOUT_MINUTES + 1) * MINUTE);
      // Odd rounds pay at the provider directly (no HTTP in front), so that the payment wins some races too.
      const payment =
        n % 2
          ? services.testProvider.pay(race.session).then(() => thanks(race.checkoutId))
          : payAndSettle(race.session);
      await Promise.all([payment, services.checkouts.expireAbandoned()]);
      const status = (await thanks(race.checkoutId)).body.status as string;
      const provider = await db()('testProviderSessions').where({ identifier: race.session }).first('status');
      expect(provider.status).toBe(status === 'fulfilled' ? 'paid' : 'canceled');
      outcomes[status]!++;
    }
    const fulfilled = await count(db()('checkouts').where({ couponId: coupon.id, status: 'fulfilled' }));
    expect(fulfilled).toBe(1 + outcomes.fulfilled!);
    expect(outcomes.fulfilled! + outcomes.canceled!).toBe(20);
    expect(await count(db()('checkouts').where({ couponId: coupon.id, status: 'open' }))).toBe(0);
    expect(await usedCount(db(), coupon.id)).toBe(fulfilled);
    expect(await count(db()('purchases').where({ couponId: coupon.id }))).toBe(fulfilled);
  });

  it('refuses transfer offers looped to new addresses past 5 an hour per owner, and past 3 a day per recipient', async () => {
    const owner = await signedIn(db());
    const purchaseId = await boughtWithTestProvider(services, db(), { buyer: owner.user, productId: course.id });
    const call = (who: SignedIn, path: string, body?: object) =>
      as(who, request(app).post(`/api/store${path}`)).send(body);
    const { max: perOwner, windowSeconds } = COMMERCE_LIMITS.transferOfferPerOwner;
    expect(perOwner).toBe(5);
    for (let i = 0; i < perOwner; i++) {
      const offered = await call(owner, `/purchases/${purchaseId}/transfer`, { email: `loop-${i}@example.com` });
      expect(offered.status).toBe(200);
      expect((await call(owner, `/transfers/${offered.body.data.id}/cancel`)).status).toBe(200);
    }
    const refused = await call(owner, `/purchases/${purchaseId}/transfer`, { email: 'loop-extra@example.com' });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe(String(toWindowEnd(clock, windowSeconds)));
    expect(
      await count(db()('outboxEmails').where({ kind: 'transfer-offer' }).where('toAddress', 'like', 'loop-%')),
    ).toBe(perOwner);
    expect(await count(db()('outboxEmails').where({ toAddress: 'loop-extra@example.com' }))).toBe(0);

    // One recipient address, offered by different owners. Someone naming it with a purchase not theirs first uses
    // up nothing of the address's offers.
    const { max: perRecipient } = COMMERCE_LIMITS.transferOfferPerRecipient;
    expect(perRecipient).toBe(3);
    const stranger = await signedIn(db());
    for (let i = 0; i < perRecipient; i++)
      expect((await call(stranger, `/purchases/${purchaseId}/transfer`, { email: 'Target@Example.com' })).status).toBe(
        409,
      );
    const answers = [];
    for (let i = 0; i <= perRecipient; i++) {
      const giver = await signedIn(db());
      const bought = await boughtWithTestProvider(services, db(), { buyer: giver.user, productId: course.id });
      answers.push(await call(giver, `/purchases/${bought}/transfer`, { email: 'Target@Example.com' }));
    }
    expect(answers.map((a) => a.status)).toEqual([...Array(perRecipient).fill(200), 429]);
    expect(await count(db()('outboxEmails').where({ toAddress: 'target@example.com', kind: 'transfer-offer' }))).toBe(
      perRecipient,
    );
  });
});

describe('commerce abuse with Stripe (the real SDK against the local stand-in)', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const clock = manualClock(onTheHour());
  let stripe: StandIn;
  let services: Services;
  let app: App;
  let course: { id: string };

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    ({ services, app } = world(clock, db(), standInEnv(stripe)));
    course = await createProduct(db(), { name: 'Stripe Abuse Course', unitAmount: 8000 });
  });
  afterAll(() => stripe?.close());

  let address = 0;
  const start = (body: object) =>
    request(app).post('/api/store/checkout').set('X-Forwarded-For', `198.18.0.${++address}`).send(body);
  const deliver = (event: Parameters<typeof deliverSigned>[1]) => deliverSigned(app, event);
  const thanks = (checkoutId: string) => request(app).get(`/api/store/checkouts/${checkoutId}`);
  async function abandon(code: string, email: string) {
    const started = await start({ productId: course.id, coupon: code, email });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    return {
      checkoutId: started.body.checkoutId as string,
      session: await sessionOfCheckout(db(), started.body.checkoutId),
    };
  }

  it('creates Checkout Sessions that Stripe expires after 30 minutes, and gives the use back on checkout.session.expired', async () => {
    const coupon = await createCoupon(db(), { code: 'STRIPETWO', percentageDiscount: 0.25, maxUses: 2 });
    const abandoned = [
      await abandon('STRIPETWO', 'left-1@example.com'),
      await abandon('STRIPETWO', 'left-2@example.com'),
    ];
    for (const { session } of abandoned) {
      const lifetime = (stripe.objects.get(session)!.expires_at as number) - Date.now() / 1000;
      expect(lifetime).toBeGreaterThanOrEqual(30 * 60);
      expect(lifetime).toBeLessThanOrEqual(32 * 60);
    }
    expect(await usedCount(db(), coupon.id)).toBe(2);
    expect((await start({ productId: course.id, coupon: 'STRIPETWO', email: 'next@example.com' })).body.code).toBe(
      'coupon-not-valid',
    );

    // Stripe expires them and says so; a redelivery gives nothing back twice.
    for (const { session } of abandoned) {
      const expired = stripe.expire(session);
      expect((await deliver(expired)).status).toBe(200);
      expect((await deliver(expired)).status).toBe(200);
    }
    expect(await usedCount(db(), coupon.id)).toBe(0);
    for (const { checkoutId } of abandoned) expect((await thanks(checkoutId)).body.status).toBe('canceled');
    expect((await start({ productId: course.id, coupon: 'STRIPETWO', email: 'next@example.com' })).status).toBe(201);
    expect(await usedCount(db(), coupon.id)).toBe(1);
  });

  it('ends abandoned sessions at Stripe by its own sweep when no webhook comes, and a late expired event changes nothing', async () => {
    const coupon = await createCoupon(db(), { code: 'SWEPTTWO', percentageDiscount: 0.25, maxUses: 2 });
    const abandoned = [
      await abandon('SWEPTTWO', 'quiet-1@example.com'),
      await abandon('SWEPTTWO', 'quiet-2@example.com'),
    ];
    clock.advance((CHECKOUT_MINUTES + 1) * MINUTE);
    const expiresBefore = stripe.calls.get('POST /v1/checkout/sessions/:id/expire') ?? 0;
    expect(await services.checkouts.expireAbandoned()).toBeGreaterThanOrEqual(2);
    expect(stripe.calls.get('POST /v1/checkout/sessions/:id/expire')).toBeGreaterThanOrEqual(expiresBefore + 2);
    expect(await usedCount(db(), coupon.id)).toBe(0);
    for (const { session, checkoutId } of abandoned) {
      expect(stripe.objects.get(session)!.status).toBe('expired');
      expect(() => stripe.pay(session)).toThrow(/expired/);
      expect((await thanks(checkoutId)).body.status).toBe('canceled');
    }
    // Someone takes a use; Stripe's own expiry events for the old sessions arrive late: that use stays taken.
    const taker = await abandon('SWEPTTWO', 'taker@example.com');
    for (const { session } of abandoned) expect((await deliver(stripe.expire(session))).status).toBe(200);
    expect(await usedCount(db(), coupon.id)).toBe(1);
    expect((await thanks(taker.checkoutId)).body.status).toBe('open');
  });

  it('keeps a payment that Stripe took just before the sweep, and keeps coupon uses exact in both orders', async () => {
    const coupon = await createCoupon(db(), { code: 'STRIPERACE', percentageDiscount: 0.25, maxUses: 5 });
    // Paid at Stripe first, its webhook late: the sweep finds it paid and fulfils it; the webhook then changes nothing.
    const paidFirst = await abandon('STRIPERACE', 'paid-first@example.com');
    clock.advance((CHECKOUT_MINUTES + 1) * MINUTE);
    const completed = stripe.pay(paidFirst.session);
    await services.checkouts.expireAbandoned();
    expect((await thanks(paidFirst.checkoutId)).body.status).toBe('fulfilled');
    expect((await deliver(completed)).status).toBe(200);
    expect(await usedCount(db(), coupon.id)).toBe(1);
    // Swept first: Stripe no longer takes the payment.
    const sweptFirst = await abandon('STRIPERACE', 'swept-first@example.com');
    clock.advance((CHECKOUT_MINUTES + 1) * MINUTE);
    await services.checkouts.expireAbandoned();
    expect(() => stripe.pay(sweptFirst.session)).toThrow(/expired/);
    expect((await thanks(sweptFirst.checkoutId)).body.status).toBe('canceled');
    expect(await usedCount(db(), coupon.id)).toBe(1);
    expect(await count(db()('purchases').where({ couponId: coupon.id, status: 'Valid' }))).toBe(1);
    expect(await count(db()('merchantCharges'))).toBe(1);
  });
});
