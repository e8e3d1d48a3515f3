import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import type { Product } from '../../api/src/db/models';
import { createServices, type Services } from '../../api/src/services';
import { createProduct, createPurchase, createUser } from '../../seeds/factories';
import { testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { boughtWithTestProvider } from '../support/checkout';
import { useTestDatabase } from '../support/db';

/**
 * The dashboard's figures mean what the Finance page's do (issue 19's console QA): net revenue is the split
 * ledger's total for the same days, purchases are paid ones, and a partial refund counts as a refund.
 */
describe('the console dashboard', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let services: Services;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let course: Product;
  let finance: SignedIn;
  let support: SignedIn;

  beforeAll(async () => {
    const deps = testDeps(db());
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    course = await createProduct(db(), { name: 'Dashboard Course', unitAmount: 4_900 });
    finance = await signedIn(db(), ['finance']);
    support = await signedIn(db(), ['support']);
  });

  it('counts paid purchases and every refund, and nets exactly what the Finance page nets', async () => {
    const buyer = await createUser(db(), { email: 'dash.buyer@example.com' });
    const lead = await createUser(db(), { email: 'dash.lead@example.com' });
    const single = await boughtWithTestProvider(services, db(), { buyer, productId: course.id });
    const team = await boughtWithTestProvider(services, db(), { buyer: lead, productId: course.id, quantity: 2 });
    // A seat taken from the team and a free purchase: not sales.
    const { inviteCode } = await db()('coupons').where({ bulkPurchaseId: team }).first('inviteCode');
    const member = await signedIn(db());
    expect((await as(member, request(app).post(`/api/store/invites/${inviteCode}/redeem`)).send()).status).toBe(201);
    await createPurchase(db(), { user: await createUser(db()), product: course, totalAmount: 0 });
    // A partial refund: the purchase stays Valid, and it is a refund all the same.
    const refund = await as(support, request(app).post(`/api/admin/purchases/${single}/refund`)).send({
      amount: 900,
      reasonCode: 'customer-request',
      reason: 'Partial',
    });
    expect(refund.status).toBe(200);

    const dashboard = await as(finance, request(app).get('/api/admin/dashboard'));
    expect(dashboard.status).toBe(200);
    expect(dashboard.body.view).toBe('finance');
    const { totals, revenueByDay, since, topProducts } = dashboard.body;
    const charges = await db()('merchantCharges').select('amount', 'fee');
    expect(totals).toMatchObject({
      gross: charges.reduce((sum, c) => sum + c.amount, 0),
      fees: charges.reduce((sum, c) => sum + c.fee, 0),
      refunded: 900,
      disputed: 0,
      purchases: 2,
      refunds: 1,
    });
    const today = revenueByDay.at(-1);
    expect(today).toMatchObject({ purchases: 2, refunds: 1, refunded: 900, net: totals.net });

    const summary = await as(
      finance,
      request(app).get('/api/admin/finance/summary').query({ from: since, to: today.day, currency: 'usd' }),
    );
    expect(summary.status).toBe(200);
    expect(totals.net).toBe(summary.body.totals.total);
    expect(totals.net).toBe(totals.gross - totals.fees - totals.refunded);
    expect(topProducts[0]).toMatchObject({ name: 'Dashboard Course', purchases: 2, revenue: totals.net });

    expect((await as(finance, request(app).get('/api/admin/dashboard').query({ days: 3 }))).status).toBe(400);
  });

  it('sends support the work, counted, and no finance figure; admins see the finance view', async () => {
    // The first test's sales and refund are in the period; a dispute still open and an email that failed are now.
    const [charge] = await db()('merchantCharges').select('id', 'merchantAccountId').limit(1);
    await db()('merchantDisputes').insert([
      { merchantAccountId: charge.merchantAccountId, identifier: 'dp_open', merchantChargeId: charge.id, amount: 100 },
      {
        merchantAccountId: charge.merchantAccountId,
        identifier: 'dp_won',
        merchantChargeId: charge.id,
        amount: 100,
        status: 'won',
      },
    ]);
    await db()('outboxEmails').insert({
      toAddress: 'dash.failed@example.com',
      subject: 'Your receipt',
      textBody: 'Hello',
      kind: 'receipt',
      status: 'failed',
      attempts: 5,
    });

    const answer = await as(support, request(app).get('/api/admin/dashboard').query({ days: 7 }));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      view: 'support',
      days: 7,
      totals: { purchases: 2, refunds: 1, openDisputes: 1, failedEmails: 1 },
      topProducts: [{ name: 'Dashboard Course', purchases: 2 }],
    });
    expect(answer.body.activityByDay).toHaveLength(7);
    expect(answer.body.activityByDay.at(-1)).toMatchObject({ purchases: 2, refunds: 1 });
    // Not a cent: no revenue, fees, refunded or disputed amounts, splits.
    const keys = JSON.stringify(answer.body)
      .match(/"\w+":/g)!
      .map((k) => k.slice(1, -2));
    for (const finance of ['gross', 'net', 'fees', 'refunded', 'disputed', 'revenue', 'revenueByDay'])
      expect(keys).not.toContain(finance);

    const boss = await signedIn(db(), ['admin']);
    const forAdmin = await as(boss, request(app).get('/api/admin/dashboard'));
    expect(forAdmin.body).toMatchObject({ view: 'finance', totals: { net: expect.any(Number) } });
  });
});
