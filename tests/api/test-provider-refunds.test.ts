import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { createServices, type Services } from '../../api/src/services';
import { createProduct } from '../../seeds/factories';
import { testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { boughtWithTestProvider } from '../support/checkout';
import { useTestDatabase } from '../support/db';

/** The built-in test provider's pending refunds: its own mode, settled from its own site as its event. */
describe('the built-in test provider holding refunds pending', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let services: Services;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let support: SignedIn;
  let course: { id: string };

  beforeAll(async () => {
    const deps = testDeps(db());
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    course = await createProduct(db(), { name: 'Test Provider Refunds', unitAmount: 4000 });
    support = await signedIn(db(), ['support']);
  });

  async function bought() {
    const buyer = await signedIn(db());
    const purchaseId = await boughtWithTestProvider(services, db(), { buyer: buyer.user, productId: course.id });
    const { merchantChargeId } = await db()('purchases').where({ id: purchaseId }).first('merchantChargeId');
    return { purchaseId, chargeId: merchantChargeId as string };
  }
  async function refundHeld(purchaseId: string, body: object) {
    services.testProvider.refundsPending(true);
    try {
      return await as(support, request(app).post(`/api/admin/purchases/${purchaseId}/refund`)).send(body);
    } finally {
      services.testProvider.refundsPending(false);
    }
  }
  const settle = async (chargeId: string, outcome: 'succeeded' | 'failed') => {
    const { identifier } = await db()('merchantRefunds').where({ merchantChargeId: chargeId }).first('identifier');
    return request(app).post(`/test-provider/checkout/refunds/${identifier}/${outcome}`);
  };
  const state = async (purchaseId: string, chargeId: string) => ({
    status: (await db()('purchases').where({ id: purchaseId }).first('status')).status,
    refundAmount: (await db()('merchantCharges').where({ id: chargeId }).first('refundAmount')).refundAmount,
    refund: (await db()('merchantRefunds').where({ merchantChargeId: chargeId }).first('status')).status,
  });

  it('answers pending, and records the refund when the provider settles it, once', async () => {
    const { purchaseId, chargeId } = await bought();
    expect((await refundHeld(purchaseId, { reasonCode: 'customer-request' })).body.data).toMatchObject({
      pending: true,
      amount: 4000,
    });
    expect(await state(purchaseId, chargeId)).toEqual({ status: 'Valid', refundAmount: 0, refund: 'pending' });
    expect((await settle(chargeId, 'succeeded')).body.data).toEqual({ settled: true });
    expect((await settle(chargeId, 'succeeded')).body.data).toEqual({ settled: false });
    expect(await state(purchaseId, chargeId)).toEqual({ status: 'Refunded', refundAmount: 4000, refund: 'succeeded' });
  });

  it('releases the reservation of a refund it failed, so the charge can be refunded again', async () => {
    const { purchaseId, chargeId } = await bought();
    await refundHeld(purchaseId, { reasonCode: 'customer-request', amount: 1000 });
    expect((await settle(chargeId, 'failed')).body.data).toEqual({ settled: true });
    expect(await state(purchaseId, chargeId)).toEqual({ status: 'Valid', refundAmount: 0, refund: 'failed' });
    const again = await as(support, request(app).post(`/api/admin/purchases/${purchaseId}/refund`)).send({
      reasonCode: 'customer-request',
    });
    expect(again.body.data).toEqual({ refundAmount: 4000, full: true, amount: 4000 });
  });
});
