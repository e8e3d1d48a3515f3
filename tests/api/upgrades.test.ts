import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { type Product, Purchase } from '../support/models';
import type { User } from '../../api/src/identity/models';
import { createServices, type Services } from '../../api/src/services';
import { createProduct, makeUpgradable } from '../../seeds/factories';
import { testDeps } from '../support/app';
import { as, signedIn } from '../support/auth';
import { paidTestCheckout } from '../support/checkout';
import { useTestDatabase } from '../support/db';

describe('upgrades (docs/domain.md §5.3)', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let services: Services;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let basics: Product;
  let complete: Product;

  beforeAll(async () => {
    const deps = testDeps(db());
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    basics = await createProduct(db(), { name: 'Basics', unitAmount: 4000 });
    complete = await createProduct(db(), { name: 'Complete', unitAmount: 10_000 });
    await makeUpgradable(db(), basics, complete);
  });

  const startCheckout = (buyer: User, product: Product, upgradeFromId?: string) =>
    paidTestCheckout(services, db(), { buyer, productId: product.id, upgradeFromId });

  it('records what the purchase upgraded from, and spends one credit once even when two upgrades are paid at once', async () => {
    const buyer = await signedIn(db());
    const { purchaseId: basicsPurchase } = await services.checkouts.fulfil(await startCheckout(buyer.user, basics));

    const quote = await as(buyer, request(app).get(`/api/store/products/${complete.id}/quote`));
    expect(quote.body.upgrade).toMatchObject({ fromPurchaseId: basicsPurchase, credit: 4000 });
    expect(quote.body.quote).toMatchObject({ credit: 4000, finalPrice: 6000 });

    // Two tabs, both priced with the same credit, both paid.
    const first = await startCheckout(buyer.user, complete, basicsPurchase!);
    const second = await startCheckout(buyer.user, complete, basicsPurchase!);
    const [a, b] = await Promise.all([services.checkouts.fulfil(first), services.checkouts.fulfil(second)]);
    expect([a.status, b.status].sort()).toEqual(['fulfilled', 'refunded']);

    const upgraded = await Purchase.query(db()).where({
      userId: buyer.user.id,
      productId: complete.id,
      status: 'Valid',
    });
    expect(upgraded).toHaveLength(1);
    expect(upgraded[0]!.upgradedFromId).toBe(basicsPurchase);
    const refunded = (await Purchase.query(db()).findById((a.status === 'refunded' ? a : b).purchaseId!))!;
    expect(refunded).toMatchObject({ status: 'Refunded', upgradedFromId: null });
    const charge = await db()('merchantCharges').where({ id: refunded.merchantChargeId }).first();
    expect(charge.refundAmount).toBe(charge.amount);
    const email = await db()('outboxEmails')
      .where({ toAddress: buyer.user.email, kind: 'unfulfillable-refund' })
      .first();
    expect(email.textBody).toContain('no longer yours to upgrade');

    // The credit is spent: a new quote offers none.
    expect((await as(buyer, request(app).get(`/api/store/products/${complete.id}/quote`))).body.upgrade).toBeNull();
  });

  it('settles an upgrade whose credit covers the last cents below the minimum charge', async () => {
    const almost = await createProduct(db(), { name: 'Almost complete', unitAmount: 9950 });
    await makeUpgradable(db(), almost, complete);

    // 100.00 - 99.50 leaves 0.50, under the minimum charge: the credit covers it and the upgrade is free.
    const buyer = await signedIn(db());
    const source = await services.checkouts.fulfil(await startCheckout(buyer.user, almost));
    const quote = await as(buyer, request(app).get(`/api/store/products/${complete.id}/quote`));
    expect(quote.body.upgrade).toMatchObject({ fromPurchaseId: source.purchaseId, worth: 9950, credit: 10_000 });
    expect(quote.body.quote).toMatchObject({ finalPrice: 0, free: true });
    const made = await as(
      buyer,
      request(app).post('/api/store/checkout').send({ productId: complete.id, quantity: 1 }),
    );
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const settled = await request(app).get(`/api/store/checkouts/${made.body.checkoutId}`);
    expect(settled.body.status).toBe('fulfilled');
    expect((await Purchase.query(db()).findById(settled.body.purchaseId))!.upgradedFromId).toBe(source.purchaseId);
  });

  it('takes no credit across currencies: ¥4,000 paid is not $40.00 off, and the quote says why', async () => {
    const yenBasics = await createProduct(db(), { name: 'Basics in yen', unitAmount: 4000, currency: 'jpy' });
    await makeUpgradable(db(), yenBasics, complete);
    const buyer = await signedIn(db());
    const source = await services.checkouts.fulfil(await startCheckout(buyer.user, yenBasics));

    const quote = await as(buyer, request(app).get(`/api/store/products/${complete.id}/quote`));
    expect(quote.status).toBe(200);
    expect(quote.body.currency).toBe('usd');
    expect(quote.body.upgrade).toBeNull();
    expect(quote.body.quote).toMatchObject({ credit: 0, finalPrice: 10_000 });
    expect(quote.body.upgradeRefused).toMatchObject({ fromPurchaseId: source.purchaseId, reason: 'other-currency' });
    expect(quote.body.upgradeRefused.message).toMatch(/another currency/);

    // Asked for by id, the upgrade is refused with its own code, before anything is reserved or charged.
    const made = await as(
      buyer,
      request(app)
        .post('/api/store/checkout')
        .send({ productId: complete.id, quantity: 1, upgradeFrom: source.purchaseId }),
    );
    expect(made.status).toBe(409);
    expect(made.body.code).toBe('upgrade-other-currency');
    expect(
      await db()('checkouts').where({ buyerUserId: buyer.user.id, productId: complete.id }).first(),
    ).toBeUndefined();
  });
});
