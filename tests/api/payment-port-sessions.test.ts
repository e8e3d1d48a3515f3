import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { CHECKOUT_MINUTES } from '../../api/src/commerce/checkout/checkout';
import type { Db } from '../../api/src/db/connection';
import { merchantAccountId } from '../../api/src/payments/merchant-records';
import type { PaymentProvider, ProviderCheckout } from '../../api/src/payments/provider';
import { createServices, type Services } from '../../api/src/services';
import { createCoupon, createProduct } from '../../seeds/factories';
import { testDeps } from '../support/app';
import { sessionOfCheckout } from '../support/checkout';
import { manualClock } from '../support/clock';
import { useTestDatabase } from '../support/db';

/**
 * A provider is whatever implements the port (api/src/payments/provider.ts). This one lives in the test's memory and
 * cannot end its hosted sessions on request, as many providers cannot: a checkout abandoned past our deadline gives
 * its coupon use back all the same, and a payment that still arrives is settled (fulfilled if it can be, refunded in
 * full through the port otherwise). Everything else is the real services and the real database.
 */

interface MemorySession {
  status: ProviderCheckout['status'];
  amount: number;
  currency: string;
  email: string;
  charge: string | null;
}

function memoryProvider(db: Db) {
  const sessions = new Map<string, MemorySession>();
  const refunds = new Map<string, { charge: string; amount: number }>();
  const account = { label: 'memory', identifier: 'memory-account' };
  const provider: PaymentProvider = {
    label: account.label,
    account: async () => account,
    accountId: () => merchantAccountId(db, account),
    async createCheckout(request) {
      const identifier = `ms_${sessions.size + 1}`;
      sessions.set(identifier, {
        status: 'open',
        amount: request.amount,
        currency: request.currency,
        email: request.customerEmail,
        charge: null,
      });
      return { identifier, url: `https://pay.example/${identifier}` };
    },
    async retrieveCheckout(identifier) {
      const session = sessions.get(identifier)!;
      return {
        status: session.status,
        amount: session.amount,
        currency: session.currency,
        charge: session.charge ? { identifier: session.charge, amount: session.amount, fee: 0 } : null,
        customer: session.charge ? { identifier: `cus_${identifier}`, email: session.email } : null,
      };
    },
    async refund({ chargeIdentifier, amount, idempotencyKey }) {
      refunds.set(idempotencyKey, { charge: chargeIdentifier, amount });
      const refundedTotal = [...refunds.values()]
        .filter((refund) => refund.charge === chargeIdentifier)
        .reduce((sum, refund) => sum + refund.amount, 0);
      const done = { status: 'succeeded' as const, identifier: `re_${idempotencyKey}`, amount, refundedTotal };
      return done;
    },
    async updateCustomerEmail() {},
  };
  return {
    provider,
    refunds,
    /** The buyer pays on the provider's page: whenever they like, since nothing ends the session. */
    pay(identifier: string) {
      const session = sessions.get(identifier)!;
      Object.assign(session, { status: 'paid', charge: `ch_${identifier}` });
    },
  };
}

const MINUTE = 60_000;

describe('a payment provider whose sessions cannot be ended, through the port only', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const clock = manualClock();
  let memory: ReturnType<typeof memoryProvider>;
  let services: Services;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let course: { id: string };

  beforeAll(async () => {
    memory = memoryProvider(db());
    const deps = { ...testDeps(db(), { clock }), payments: memory.provider };
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    course = await createProduct(db(), { name: 'Port Course', unitAmount: 8000 });
  });

  const begin = async (email: string, couponCode?: string) => {
    const started = await request(app)
      .post('/api/store/checkout')
      .send({ productId: course.id, email, ...(couponCode && { coupon: couponCode }) });
    expect(started.status).toBe(201);
    const checkoutId = started.body.checkoutId as string;
    return { checkoutId, session: await sessionOfCheckout(db(), checkoutId) };
  };
  const thanks = async (checkoutId: string) =>
    (await request(app).get(`/api/store/checkouts/${checkoutId}`)).body as { status: string; purchaseId: string };
  const usedCount = async (couponId: string) =>
    (await db()('coupons').where({ id: couponId }).first('usedCount')).usedCount as number;
  const purchaseOf = (checkoutId: string) =>
    db()('purchases as p')
      .join('checkouts as c', 'c.purchaseId', 'p.id')
      .join('merchantCharges as ch', 'ch.id', 'p.merchantChargeId')
      .where('c.id', checkoutId)
      .first('p.status', 'p.totalAmount', 'ch.identifier as charge');

  it('sells a course: the hosted session is paid and the thank-you page fulfils it with its charge', async () => {
    const { checkoutId, session } = await begin('paid-at-once@example.com');
    memory.pay(session);
    expect(await thanks(checkoutId)).toMatchObject({ status: 'fulfilled' });
    expect(await purchaseOf(checkoutId)).toEqual({ status: 'Valid', totalAmount: 8000, charge: `ch_${session}` });
    // Settling again (a provider's event after the page) changes nothing.
    expect(await services.checkouts.settleSession(session)).toMatchObject({ status: 'fulfilled' });
    expect(memory.refunds.size).toBe(0);
  });

  it('ends an abandoned checkout at our deadline, gives its coupon use back, and fulfils a payment arriving later', async () => {
    const coupon = await createCoupon(db(), { code: 'LATEOK', percentageDiscount: 0.25, maxUses: 1 });
    const { checkoutId, session } = await begin('late-payer@example.com', 'LATEOK');
    expect(await usedCount(coupon.id)).toBe(1);

    clock.advance((CHECKOUT_MINUTES + 1) * MINUTE);
    expect(await services.checkouts.expireAbandoned()).toBe(1);
    expect((await db()('checkouts').where({ id: checkoutId }).first('status')).status).toBe('canceled');
    expect(await usedCount(coupon.id)).toBe(0);

    // The session stayed payable at the provider: the buyer pays an hour later, and the provider says so.
    clock.advance(60 * MINUTE);
    memory.pay(session);
    expect(await services.checkouts.settleSession(session)).toMatchObject({ status: 'fulfilled' });
    expect(await purchaseOf(checkoutId)).toEqual({ status: 'Valid', totalAmount: 6000, charge: `ch_${session}` });
    expect(await usedCount(coupon.id)).toBe(1);
    expect(memory.refunds.size).toBe(0);
  });

  it('refunds in full through the port a late payment whose coupon use went to someone else meanwhile', async () => {
    const coupon = await createCoupon(db(), { code: 'LATEGONE', percentageDiscount: 0.5, maxUses: 1 });
    const late = await begin('too-late@example.com', 'LATEGONE');
    clock.advance((CHECKOUT_MINUTES + 1) * MINUTE);
    expect(await services.checkouts.expireAbandoned()).toBe(1);
    expect(await usedCount(coupon.id)).toBe(0);

    // The use came back, and another buyer takes it and pays in time.
    const other = await begin('in-time@example.com', 'LATEGONE');
    memory.pay(other.session);
    expect(await thanks(other.checkoutId)).toMatchObject({ status: 'fulfilled' });
    expect(await usedCount(coupon.id)).toBe(1);

    memory.pay(late.session);
    expect(await thanks(late.checkoutId)).toMatchObject({ status: 'refunded' });
    expect(await purchaseOf(late.checkoutId)).toEqual({
      status: 'Refunded',
      totalAmount: 4000,
      charge: `ch_${late.session}`,
    });
    expect([...memory.refunds.values()]).toEqual([{ charge: `ch_${late.session}`, amount: 4000 }]);
    expect(await usedCount(coupon.id)).toBe(1);
    // Asked again (the thank-you page reloaded), nothing is refunded twice.
    expect(await thanks(late.checkoutId)).toMatchObject({ status: 'refunded' });
    expect(memory.refunds.size).toBe(1);
  });

  it('loses no payment racing the deadline: each one ends fulfilled with its coupon use, whichever comes first (10 races)', async () => {
    const coupon = await createCoupon(db(), { code: 'RACE', percentageDiscount: 0.2, maxUses: 100 });
    const refundsBefore = memory.refunds.size;
    const races = await Promise.all(Array.from({ length: 10 }, (_, n) => begin(`race-${n}@example.com`, 'RACE')));
    clock.advance((CHECKOUT_MINUTES + 1) * MINUTE);
    await Promise.all([
      services.checkouts.expireAbandoned(),
      ...races.map(async ({ session }) => {
        memory.pay(session);
        await services.checkouts.settleSession(session);
      }),
    ]);
    for (const { checkoutId } of races) expect(await thanks(checkoutId)).toMatchObject({ status: 'fulfilled' });
    expect(await usedCount(coupon.id)).toBe(10);
    expect(memory.refunds.size).toBe(refundsBefore);
  });

  it('still cancels a checkout whose session the buyer left, with nothing to settle later', async () => {
    const coupon = await createCoupon(db(), { code: 'LEFT', percentageDiscount: 0.1, maxUses: 5 });
    const { checkoutId } = await begin('left@example.com', 'LEFT');
    clock.advance((CHECKOUT_MINUTES + 1) * MINUTE);
    expect(await services.checkouts.expireAbandoned()).toBe(1);
    expect(await thanks(checkoutId)).toMatchObject({ status: 'canceled', purchaseId: null });
    expect(await usedCount(coupon.id)).toBe(0);
    expect(await services.checkouts.expireAbandoned()).toBe(0);
  });
});
