import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import type { Db } from '../../api/src/db/connection';
import { merchantAccountId } from '../../api/src/payments/merchant-records';
import type { PaymentProvider, RefundSettlement } from '../../api/src/payments/provider';
import { createServices, type Services } from '../../api/src/services';
import { createProduct } from '../../seeds/factories';
import { testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { sessionOfCheckout } from '../support/checkout';
import { useTestDatabase } from '../support/db';

/**
 * A third provider, written here against the port (api/src/payments/provider.ts) and nothing else: it lives in the
 * test's memory, and every refund it makes is asynchronous, answered `pending` and decided later by an event of its
 * own. Commerce was not changed for it: the real services and the real database refund through it.
 */
function slowRefundProvider(db: Db) {
  const paid = new Map<string, { amount: number; email: string }>();
  const refunds = new Map<string, { key: string; charge: string; amount: number; status: string }>();
  const account = { label: 'slow-refunds', identifier: 'slow-refunds-account' };
  const provider: PaymentProvider = {
    label: account.label,
    account: async () => account,
    accountId: () => merchantAccountId(db, account),
    async createCheckout(request) {
      const identifier = `sr_${paid.size + 1}_${request.reference}`;
      paid.set(identifier, { amount: request.amount, email: request.customerEmail });
      return { identifier, url: `https://slow.example/${identifier}` };
    },
    // The buyer pays at once: this provider is only slow to refund.
    async retrieveCheckout(identifier) {
      const session = paid.get(identifier)!;
      return {
        status: 'paid',
        amount: session.amount,
        currency: 'usd',
        charge: { identifier: `ch_${identifier}`, amount: session.amount, fee: 0 },
        customer: { identifier: `cus_${identifier}`, email: session.email },
      };
    },
    async expireCheckout(identifier) {
      return provider.retrieveCheckout(identifier);
    },
    async refund({ chargeIdentifier, amount, idempotencyKey }) {
      const identifier = `rf_${idempotencyKey}`;
      if (!refunds.has(identifier))
        refunds.set(identifier, { key: idempotencyKey, charge: chargeIdentifier, amount, status: 'pending' });
      return { status: 'pending', identifier, amount };
    },
    async updateCustomerEmail() {},
  };
  return {
    provider,
    refunds,
    /** The provider's later event on a refund: what its webhook would tell us. */
    settle(identifier: string, outcome: RefundSettlement['outcome']): RefundSettlement {
      refunds.get(identifier)!.status = outcome;
      const failureReason = outcome === 'failed' ? 'the issuing bank refused it' : null;
      return { identifier, idempotencyKey: refunds.get(identifier)!.key, outcome, failureReason };
    },
  };
}

describe('a provider whose refunds are always asynchronous, through the port only', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let slow: ReturnType<typeof slowRefundProvider>;
  let services: Services;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let support: SignedIn;
  let course: { id: string };

  beforeAll(async () => {
    slow = slowRefundProvider(db());
    const deps = { ...testDeps(db()), payments: slow.provider };
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    course = await createProduct(db(), { name: 'Slow Refunds Course', unitAmount: 5000 });
    support = await signedIn(db(), ['support']);
  });

  async function bought(email: string) {
    const started = await request(app).post('/api/store/checkout').send({ productId: course.id, email });
    expect(started.status).toBe(201);
    const checkoutId = started.body.checkoutId as string;
    await sessionOfCheckout(db(), checkoutId);
    const thanks = await request(app).get(`/api/store/checkouts/${checkoutId}`);
    expect(thanks.body).toMatchObject({ status: 'fulfilled' });
    const purchase = await db()('purchases').where({ id: thanks.body.purchaseId }).first('id', 'merchantChargeId');
    return { purchaseId: purchase.id as string, chargeId: purchase.merchantChargeId as string, email };
  }
  const refund = (purchaseId: string, body: object) =>
    as(support, request(app).post(`/api/admin/purchases/${purchaseId}/refund`)).send(body);
  /** The provider's id of the charge's refund it holds pending, as our row recorded it from its answer. */
  const pendingAtProvider = async (chargeId: string) =>
    (await db()('merchantRefunds').where({ merchantChargeId: chargeId, status: 'pending' }).first('identifier'))
      .identifier as string;
  const deliver = async (settlement: RefundSettlement) =>
    services.lifecycle.refundSettled(await slow.provider.accountId(), settlement);
  const stateOf = async ({ purchaseId, chargeId, email }: { purchaseId: string; chargeId: string; email: string }) => ({
    status: (await db()('purchases').where({ id: purchaseId }).first('status')).status,
    refundAmount: (await db()('merchantCharges').where({ id: chargeId }).first('refundAmount')).refundAmount,
    refunds: await db()('merchantRefunds')
      .where({ merchantChargeId: chargeId })
      .orderBy('createdAt')
      .select('status', 'amount', 'failureReason'),
    refundLines: Number(
      (await db()('splitLines').where({ merchantChargeId: chargeId, kind: 'refund' }).count({ n: '*' }))[0]!.n,
    ),
    emails: Number((await db()('outboxEmails').where({ toAddress: email, kind: 'refund' }).count({ n: '*' }))[0]!.n),
  });

  it('keeps a pending refund reserved, then records it once when the provider says it succeeded', async () => {
    const sale = await bought('slow-success@example.com');
    const asked = await refund(sale.purchaseId, { reasonCode: 'customer-request' });
    expect(asked.status).toBe(200);
    expect(asked.body.data).toEqual({ refundAmount: 0, full: false, amount: 5000, pending: true });
    // Pending: access stays, nothing is recorded as refunded, and the amount is taken (a second refund is refused).
    expect(await stateOf(sale)).toEqual({
      status: 'Valid',
      refundAmount: 0,
      refunds: [{ status: 'pending', amount: 5000, failureReason: null }],
      refundLines: 0,
      emails: 0,
    });
    const again = await refund(sale.purchaseId, { reasonCode: 'customer-request', amount: 100 });
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/under way/);

    const succeeded = slow.settle(await pendingAtProvider(sale.chargeId), 'succeeded');
    // Delivered three times, two of them at once: recorded once, as a refund that succeeded at once is.
    await Promise.all([deliver(succeeded), deliver(succeeded)]);
    await deliver(succeeded);
    expect(await stateOf(sale)).toEqual({
      status: 'Refunded',
      refundAmount: 5000,
      refunds: [{ status: 'succeeded', amount: 5000, failureReason: null }],
      refundLines: 1,
      emails: 1,
    });
    // A late contrary word after success changes nothing.
    await deliver({ ...succeeded, outcome: 'failed', failureReason: 'late' });
    expect((await stateOf(sale)).refunds).toEqual([{ status: 'succeeded', amount: 5000, failureReason: null }]);
  });

  it('releases a refund the provider failed, tells staff why, and lets them ask again under a new key', async () => {
    const sale = await bought('slow-failure@example.com');
    expect((await refund(sale.purchaseId, { reasonCode: 'duplicate', amount: 2000 })).body.data).toMatchObject({
      pending: true,
      amount: 2000,
    });
    const failed = slow.settle(await pendingAtProvider(sale.chargeId), 'failed');
    await deliver(failed);
    await deliver(failed); // a redelivery
    await deliver({ ...failed, outcome: 'succeeded' }); // a late contrary word: the first word stands
    expect(await stateOf(sale)).toEqual({
      status: 'Valid',
      refundAmount: 0,
      refunds: [{ status: 'failed', amount: 2000, failureReason: 'the issuing bank refused it' }],
      refundLines: 0,
      emails: 0,
    });
    const audit = await db()('auditLogs')
      .where({ resource: 'purchases', recordId: sale.purchaseId, action: 'purchase.refund-failed' })
      .select('after');
    expect(audit).toEqual([
      { after: expect.objectContaining({ status: 'failed', reason: 'the issuing bank refused it' }) },
    ]);

    // The reservation is released: the whole charge can be refunded again, under a key the provider has not seen.
    const keysBefore = new Set([...slow.refunds.values()].map((r) => r.key));
    const retried = await refund(sale.purchaseId, { reasonCode: 'duplicate' });
    expect(retried.body.data).toMatchObject({ pending: true, amount: 5000 });
    expect([...slow.refunds.values()].filter((r) => !keysBefore.has(r.key))).toHaveLength(1);
    await deliver(slow.settle(await pendingAtProvider(sale.chargeId), 'succeeded'));
    expect(await stateOf(sale)).toMatchObject({ status: 'Refunded', refundAmount: 5000, refundLines: 1, emails: 1 });
  });
});
