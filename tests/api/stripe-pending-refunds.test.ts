import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from '../../seeds/factories';
import { testApp, testConfig } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { sessionOfCheckout } from '../support/checkout';
import { useTestDatabase } from '../support/db';
import { deliverSigned, standInEnv, startStripeStandIn, type StandIn } from '../support/stripe-stand-in';

/** Refunds Stripe holds pending (docs/domain.md §6.4): settled by its later events, in any order and however often. */
describe('refunds Stripe holds pending, settled by its events', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let stripe: StandIn;
  let app: ReturnType<typeof testApp>;
  let support: SignedIn;
  let course: { id: string };

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    app = testApp(db(), { config: testConfig(standInEnv(stripe)) });
    course = await createProduct(db(), { name: 'Pending Refunds Course', unitAmount: 7000 });
    support = await signedIn(db(), ['support']);
  });
  afterAll(() => stripe?.close());

  const deliver = (event: Parameters<typeof deliverSigned>[1]) => deliverSigned(app, event);
  async function bought(email: string) {
    const created = await request(app).post('/api/store/checkout').send({ productId: course.id, email });
    expect(created.status).toBe(201);
    const checkoutId = created.body.checkoutId as string;
    expect((await deliver(stripe.pay(await sessionOfCheckout(db(), checkoutId)))).status).toBe(200);
    const purchase = await db()('purchases as p')
      .join('checkouts as c', 'c.purchaseId', 'p.id')
      .join('merchantCharges as ch', 'ch.id', 'p.merchantChargeId')
      .where('c.id', checkoutId)
      .first('p.id', 'ch.id as chargeId', 'ch.identifier as charge');
    return { purchaseId: purchase.id as string, chargeId: purchase.chargeId as string, charge: purchase.charge, email };
  }
  const refund = (purchaseId: string, body: object) =>
    as(support, request(app).post(`/api/admin/purchases/${purchaseId}/refund`)).send(body);
  const pendingAtStripe = async (chargeId: string) =>
    (await db()('merchantRefunds').where({ merchantChargeId: chargeId, status: 'pending' }).first('identifier'))
      .identifier as string;
  const stateOf = async ({ purchaseId, chargeId, email }: { purchaseId: string; chargeId: string; email: string }) => ({
    status: (await db()('purchases').where({ id: purchaseId }).first('status')).status,
    refundAmount: (await db()('merchantCharges').where({ id: chargeId }).first('refundAmount')).refundAmount,
    refunds: await db()('merchantRefunds')
      .where({ merchantChargeId: chargeId })
      .orderBy('createdAt')
      .select('status', 'amount', 'reasonCode', 'failureReason'),
    refundLines: Number(
      (await db()('splitLines').where({ merchantChargeId: chargeId, kind: 'refund' }).count({ n: '*' }))[0]!.n,
    ),
    emails: Number((await db()('outboxEmails').where({ toAddress: email, kind: 'refund' }).count({ n: '*' }))[0]!.n),
  });

  it('counts a pending refund as taken, ignores charge.refunded meanwhile, and records it once it succeeds', async () => {
    const sale = await bought('pending-ok@example.com');
    stripe.refundsPending(true);
    try {
      const asked = await refund(sale.purchaseId, { reasonCode: 'customer-request' });
      expect(asked.body.data).toEqual({ refundAmount: 0, full: false, amount: 7000, pending: true });
    } finally {
      stripe.refundsPending(false);
    }
    // Stripe announces the refund on the charge at once, pending as it is: nothing is recorded from it.
    expect((await deliver(stripe.chargeRefundedEvent(sale.charge))).status).toBe(200);
    const pending = {
      status: 'Valid',
      refundAmount: 0,
      refunds: [{ status: 'pending', amount: 7000, reasonCode: 'customer-request', failureReason: null }],
      refundLines: 0,
      emails: 0,
    };
    expect(await stateOf(sale)).toEqual(pending);
    expect((await refund(sale.purchaseId, { reasonCode: 'customer-request', amount: 100 })).body.message).toMatch(
      /under way/,
    );

    const refundId = await pendingAtStripe(sale.chargeId);
    const succeeded = stripe.settleRefund(refundId, 'succeeded');
    const echoed = stripe.event('charge.refund.updated', stripe.objects.get(refundId)!);
    const answers = await Promise.all([deliver(succeeded), deliver(echoed), deliver(succeeded)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    await deliver(stripe.chargeRefundedEvent(sale.charge)); // a late copy of the charge's event
    expect(await stateOf(sale)).toEqual({
      ...pending,
      status: 'Refunded',
      refundAmount: 7000,
      refunds: [{ status: 'succeeded', amount: 7000, reasonCode: 'customer-request', failureReason: null }],
      refundLines: 1,
      emails: 1,
    });
  });

  it('releases a refund Stripe failed, with its reason, and asks again under a new key', async () => {
    const sale = await bought('pending-failed@example.com');
    stripe.refundsPending(true);
    try {
      expect((await refund(sale.purchaseId, { reasonCode: 'duplicate', amount: 3000 })).body.data).toMatchObject({
        pending: true,
      });
    } finally {
      stripe.refundsPending(false);
    }
    const refundId = await pendingAtStripe(sale.chargeId);
    const failed = stripe.settleRefund(refundId, 'failed');
    // The charge's event of the failure (its total back down), then the refund's own, twice.
    await deliver(stripe.chargeRefundedEvent(sale.charge));
    await deliver(failed);
    await deliver(stripe.event('charge.refund.updated', stripe.objects.get(refundId)!));
    expect(await stateOf(sale)).toEqual({
      status: 'Valid',
      refundAmount: 0,
      refunds: [{ status: 'failed', amount: 3000, reasonCode: 'duplicate', failureReason: 'expired_or_canceled_card' }],
      refundLines: 0,
      emails: 0,
    });
    const audit = await db()('auditLogs')
      .where({ recordId: sale.purchaseId, action: 'purchase.refund-failed' })
      .select('after');
    expect(audit).toEqual([
      { after: expect.objectContaining({ refund: refundId, reason: 'expired_or_canceled_card', amount: 3000 }) },
    ]);

    const keys = stripe.requests.filter((r) => r.template === 'POST /v1/refunds').map((r) => r.idempotencyKey);
    const again = await refund(sale.purchaseId, { reasonCode: 'duplicate', amount: 3000 });
    expect(again.body.data).toEqual({ refundAmount: 3000, full: false, amount: 3000 });
    const retryKey = stripe.requests.filter((r) => r.template === 'POST /v1/refunds').at(-1)!.idempotencyKey;
    expect(keys).not.toContain(retryKey);
    expect(await stateOf(sale)).toMatchObject({ status: 'Valid', refundAmount: 3000, refundLines: 1, emails: 1 });
  });

  it('refuses a settlement that overtakes the answer to our request, and takes its redelivery', async () => {
    const sale = await bought('pending-overtaken@example.com');
    const before = new Set(stripe.objects.keys());
    stripe.refundsPending(true);
    stripe.delayNext('POST /v1/refunds', 1500);
    const asked = refund(sale.purchaseId, { reasonCode: 'customer-request' }).then((answer) => answer);
    let refundId: string | undefined;
    while (!refundId) {
      await new Promise((resolve) => setImmediate(resolve));
      refundId = [...stripe.objects.values()].find((o) => o.object === 'refund' && !before.has(o.id))?.id;
    }
    stripe.refundsPending(false);
    const succeeded = stripe.settleRefund(refundId, 'succeeded');
    // Our answer is not recorded yet: Stripe is told to deliver again.
    expect((await deliver(succeeded)).status).toBe(500);
    expect((await asked).body.data).toMatchObject({ pending: true });
    expect((await deliver(succeeded)).status).toBe(200);
    expect(await stateOf(sale)).toMatchObject({ status: 'Refunded', refundAmount: 7000, refundLines: 1, emails: 1 });
  });
});
