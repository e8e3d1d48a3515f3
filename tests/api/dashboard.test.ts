import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import type { Product } from '../support/models';
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
  it('shows money one currency at a time: by default the one sold most, each figure its own to the unit', async () => {
    // The first test's two dollar sales and $9 refund; now three yen sales of ¥4,000 and a ¥1,000 refund.
    const yen = await createProduct(db(), { name: 'Yen Course', unitAmount: 4_000, currency: 'jpy' });
    const sold: string[] = [];
    for (const email of ['yen.1@example.com', 'yen.2@example.com', 'yen.3@example.com'])
      sold.push(
        await boughtWithTestProvider(services, db(), { buyer: await createUser(db(), { email }), productId: yen.id }),
      );
    const refund = await as(support, request(app).post(`/api/admin/purchases/${sold[0]}/refund`)).send({
      amount: 1_000,
      reasonCode: 'customer-request',
      reason: 'Partial',
    });
    expect(refund.status).toBe(200);

    const charges = async (currency: string) => {
      const rows = await db()('merchantCharges').where({ currency }).select('amount', 'fee');
      return { gross: rows.reduce((t, c) => t + c.amount, 0), fees: rows.reduce((t, c) => t + c.fee, 0) };
    };
    const ledgerTotal = async (currency: string, from: string, to: string) =>
      (await as(finance, request(app).get('/api/admin/finance/summary').query({ from, to, currency }))).body.totals
        .total as number;

    const inYen = await as(finance, request(app).get('/api/admin/dashboard'));
    expect(inYen.status).toBe(200);
    const today = inYen.body.revenueByDay.at(-1).day as string;
    const yenCharges = await charges('jpy');
    expect(yenCharges.gross).toBe(12_000);
    expect(inYen.body).toMatchObject({
      view: 'finance',
      currency: 'jpy',
      currencies: ['jpy', 'usd'],
      totals: { ...yenCharges, refunded: 1_000, disputed: 0, purchases: 3, refunds: 1 },
      topProducts: [{ name: 'Yen Course', purchases: 3, revenue: inYen.body.totals.net }],
    });
    expect(inYen.body.topProducts).toHaveLength(1);
    expect(inYen.body.totals.net).toBe(await ledgerTotal('jpy', inYen.body.since, today));
    expect(inYen.body.totals.net).toBe(12_000 - yenCharges.fees - 1_000);
    expect(inYen.body.revenueByDay.at(-1)).toMatchObject({ gross: 12_000, refunded: 1_000, purchases: 3 });

    const inDollars = await as(finance, request(app).get('/api/admin/dashboard').query({ currency: 'usd' }));
    expect(inDollars.status).toBe(200);
    const dollarCharges = await charges('usd');
    expect(inDollars.body).toMatchObject({
      currency: 'usd',
      currencies: ['jpy', 'usd'],
      totals: { ...dollarCharges, refunded: 900, purchases: 2, refunds: 1 },
      topProducts: [{ name: 'Dashboard Course', purchases: 2, revenue: inDollars.body.totals.net }],
    });
    expect(inDollars.body.topProducts).toHaveLength(1);
    expect(inDollars.body.totals.net).toBe(await ledgerTotal('usd', inDollars.body.since, today));
    expect(inDollars.body.revenueByDay.at(-1)).toMatchObject({ gross: dollarCharges.gross, refunded: 900 });

    // A currency nothing was sold in: nothing, and still the period's currencies to switch to.
    const inEuros = await as(finance, request(app).get('/api/admin/dashboard').query({ currency: 'eur' }));
    expect(inEuros.body).toMatchObject({
      currency: 'eur',
      currencies: ['jpy', 'usd'],
      totals: { gross: 0, net: 0, purchases: 0, refunds: 0 },
      topProducts: [],
    });

    for (const currency of ['JPY', 'yen', 'xyz', ''])
      expect(
        (await as(finance, request(app).get('/api/admin/dashboard').query({ currency }))).body,
        currency,
      ).toMatchObject({ code: 'validation-failed', errors: { currency: expect.any(String) } });
    const refused = await as(finance, request(app).get('/api/admin/dashboard').query({ currency: 'xyz' }));
    expect(refused.status).toBe(400);

    // Support's view stays counts across currencies, without a currency.
    const counted = await as(support, request(app).get('/api/admin/dashboard').query({ currency: 'jpy' }));
    expect(counted.body).toMatchObject({ view: 'support', totals: { purchases: 5, refunds: 2 } });
    expect(counted.body).not.toHaveProperty('currency');
  });
});
