import { parse as parseSync } from 'csv-parse/sync';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { type Product, Purchase } from '../support/models';
import { createServices, type Services } from '../../api/src/services';
import { createProduct } from '../../seeds/factories';
import { testConfig, testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { sessionOfCheckout } from '../support/checkout';
import { useTestDatabase } from '../support/db';
import { standInEnv, startStripeStandIn, type StandIn, deliverSigned } from '../support/stripe-stand-in';

const DAY_MS = 86_400_000;
const day = (date: Date) => date.toISOString().slice(0, 10);

describe('structured refund reasons, the refunds report and disputes with their evidence due dates', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let stripe: StandIn;
  let services: Services;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let support: SignedIn;
  let finance: SignedIn;
  let learner: SignedIn;
  let basics: Product;
  let advanced: Product;

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    const deps = testDeps(db(), { config: testConfig(standInEnv(stripe)) });
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    basics = await createProduct(db(), { name: 'Reasons Basics', unitAmount: 10_000 });
    advanced = await createProduct(db(), { name: 'Reasons Advanced', unitAmount: 6_000 });
    support = await signedIn(db(), ['support']);
    finance = await signedIn(db(), ['finance']);
    learner = await signedIn(db());
  });
  afterAll(() => stripe?.close());

  const deliver = (event: Parameters<typeof deliverSigned>[1]) => deliverSigned(app, event);
  async function sold(product: Product, email: string) {
    const { checkoutId } = await services.checkouts.create({
      productId: product.id,
      quantity: 1,
      team: false,
      ppp: false,
      email,
      buyer: null,
      country: 'US',
      ip: null,
    });
    await deliver(stripe.pay(await sessionOfCheckout(db(), checkoutId)));
    const purchase = (await Purchase.query(db()).findById((await services.checkouts.fulfil(checkoutId)).purchaseId!))!;
    const charge = await db()('merchantCharges').where({ id: purchase.merchantChargeId }).first();
    return { purchase, charge };
  }
  const refund = (purchaseId: string, body: object) =>
    as(support, request(app).post(`/api/admin/purchases/${purchaseId}/refund`)).send(body);
  const report = (who: SignedIn, query: object) => as(who, request(app).get('/api/admin/reports/refunds')).query(query);
  const csvOf = (who: SignedIn, query: object) =>
    as(who, request(app).get('/api/admin/reports/refunds.csv').query(query))
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => done(null, text));
      });

  it('refuses a refund without a reason (or "other" without a note) with a field error, writing nothing', async () => {
    const { purchase, charge } = await sold(basics, 'no-reason@example.com');
    const refundsAsked = stripe.calls.get('POST /v1/refunds') ?? 0;

    const missing = await refund(purchase.id, { amount: 1000, reason: 'Asked nicely' });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'validation-failed', errors: { reasonCode: expect.any(String) } });

    const unknown = await refund(purchase.id, { reasonCode: 'provider' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toHaveProperty('reasonCode');

    const bareOther = await refund(purchase.id, { reasonCode: 'other', reason: '  ' });
    expect(bareOther.status).toBe(400);
    expect(bareOther.body.errors).toEqual({ reason: 'say why, in a few words' });

    expect(await db()('merchantRefunds').where({ merchantChargeId: charge.id })).toEqual([]);
    expect(await db()('merchantCharges').where({ id: charge.id }).first('refundAmount')).toEqual({ refundAmount: 0 });
    expect(await db()('splitLines').where({ merchantChargeId: charge.id, kind: 'refund' })).toEqual([]);
    expect(stripe.calls.get('POST /v1/refunds') ?? 0).toBe(refundsAsked);
    expect((await Purchase.query(db()).findById(purchase.id))!.status).toBe('Valid');

    // With a reason it goes through; the code is stored, the note kept, both on the purchase's status reason.
    const done = await refund(purchase.id, { reasonCode: 'other', reason: 'Moved to the team plan' });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(await db()('merchantRefunds').where({ merchantChargeId: charge.id }).first()).toMatchObject({
      reasonCode: 'other',
      reason: 'Moved to the team plan',
      status: 'succeeded',
      requestedById: support.user.id,
    });
    expect((await Purchase.query(db()).findById(purchase.id))!.statusReason).toBe('Other: Moved to the team plan');
    const timeline = await as(support, request(app).get(`/api/admin/purchases/${purchase.id}/timeline`));
    expect(timeline.body.data.find((e: { kind: string }) => e.kind === 'refund')).toMatchObject({
      detail: 'Reason: Other: Moved to the team plan',
    });
  });

  it('sums a period’s refunds by reason and by product, partial refunds each counted, in integer cents', async () => {
    const today = new Date();
    const from = day(new Date(today.getTime() - 6 * DAY_MS));
    const to = day(today);
    const before = (await report(finance, { from, to })).body;

    const first = await sold(basics, 'partial@example.com'); // 10,000
    const second = await sold(advanced, 'duplicate@example.com'); // 6,000
    const third = await sold(advanced, 'dashboard@example.com'); // 6,000
    const old = await sold(basics, 'long-ago@example.com');
    expect((await refund(first.purchase.id, { amount: 2_500, reasonCode: 'technical-problem' })).status).toBe(200);
    expect(
      (await refund(first.purchase.id, { reasonCode: 'technical-problem', reason: 'Video never loaded' })).status,
    ).toBe(200);
    expect((await refund(second.purchase.id, { reasonCode: 'duplicate' })).status).toBe(200);
    // Made in Stripe's dashboard: recorded from its event as a refund of its own, reason 'provider'.
    expect((await deliver(stripe.refundFromDashboard(third.charge.identifier, 1_500))).status).toBe(200);
    // A refund outside the period does not count.
    expect((await refund(old.purchase.id, { reasonCode: 'duplicate' })).status).toBe(200);
    await db()('merchantRefunds')
      .where({ merchantChargeId: old.charge.id })
      .update({ createdAt: new Date(today.getTime() - 30 * DAY_MS) });

    const answer = await report(finance, { from, to });
    expect(answer.status).toBe(200);
    const after = answer.body;
    const grew = <T extends { count: number; amountCents: number }>(
      rows: T[],
      was: T[],
      key: (row: T) => unknown,
      value: unknown,
    ) => {
      const now = rows.find((r) => key(r) === value) ?? { count: 0, amountCents: 0 };
      const then = was.find((r) => key(r) === value) ?? { count: 0, amountCents: 0 };
      return { count: now.count - then.count, amountCents: now.amountCents - then.amountCents };
    };
    type Reason = { reason: string | null; count: number; amountCents: number };
    type ProductRow = { productId: string | null; count: number; amountCents: number };
    const byReason = (code: string) => grew<Reason>(after.byReason, before.byReason, (r) => r.reason, code);
    const byProduct = (id: string) => grew<ProductRow>(after.byProduct, before.byProduct, (r) => r.productId, id);
    expect(byReason('technical-problem')).toEqual({ count: 2, amountCents: 10_000 });
    expect(byReason('duplicate')).toEqual({ count: 1, amountCents: 6_000 });
    expect(byReason('provider')).toEqual({ count: 1, amountCents: 1_500 });
    expect(byProduct(basics.id)).toEqual({ count: 2, amountCents: 10_000 });
    expect(byProduct(advanced.id)).toEqual({ count: 2, amountCents: 7_500 });
    expect(after.total).toEqual({
      count: before.total.count + 4,
      amountCents: before.total.amountCents + 17_500,
    });
    expect(after.byReason.find((r: Reason) => r.reason === 'duplicate')).toMatchObject({ label: 'Duplicate purchase' });
    expect(after.byProduct.find((r: ProductRow) => r.productId === basics.id)).toMatchObject({
      name: 'Reasons Basics',
    });
    expect(after).toMatchObject({ from, to, currency: 'usd', currencies: ['usd'] });
    // Integers all the way: no float cents.
    for (const row of [...after.byReason, ...after.byProduct]) expect(Number.isInteger(row.amountCents)).toBe(true);

    // Stripe hears the reasons it has a word for (duplicate, fraudulent, requested by the customer); ours go in metadata.
    const stripeRefund = async (chargeId: string) =>
      stripe.objects.get(
        (await db()('merchantRefunds').where({ merchantChargeId: chargeId }).orderBy('createdAt').first()).identifier,
      );
    expect(await stripeRefund(second.charge.id)).toMatchObject({
      reason: 'duplicate',
      metadata: { reason_code: 'duplicate' },
    });
    expect(await stripeRefund(first.charge.id)).toMatchObject({
      reason: null,
      metadata: { reason: 'Technical problem', reason_code: 'technical-problem' },
    });

    // The provider's refund is a row of its own, under the event that reported it.
    expect(await db()('merchantRefunds').where({ merchantChargeId: third.charge.id })).toEqual([
      expect.objectContaining({ reasonCode: 'provider', amount: 1_500, status: 'succeeded', requestedById: null }),
    ]);

    // Support reads it too; a learner does not.
    expect((await report(support, { from, to })).status).toBe(200);
    expect((await report(learner, { from, to })).status).toBe(403);
  });

  it('answers bad dates with 400 and the field they are about', async () => {
    const backwards = await report(finance, { from: '2026-03-10', to: '2026-03-01' });
    expect(backwards.status).toBe(400);
    expect(backwards.body.errors).toEqual({ from: 'must not be after "to"' });
    const garbled = await report(finance, { from: '2026-02-30x', to: '2026-03-01' });
    expect(garbled.status).toBe(400);
    expect(garbled.body.errors).toHaveProperty('from');
    const tooLong = await csvOf(finance, { from: '2024-01-01', to: '2026-01-01' });
    expect(tooLong.status).toBe(400);
    expect(JSON.parse(tooLong.body as string).errors).toHaveProperty('to');
  });

  it('exports the period’s refunds as a formula-safe CSV with reason, product, amount and who asked', async () => {
    const { purchase, charge } = await sold(basics, 'csv@example.com');
    expect((await refund(purchase.id, { amount: 700, reasonCode: 'other', reason: '=HYPERLINK("x")' })).status).toBe(
      200,
    );
    const today = day(new Date());
    const csv = await csvOf(support, { from: today, to: today });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="refunds-${today}-to-${today}.csv"`);
    const text = csv.body as string;
    expect(text.startsWith('\uFEFFDate,Refund,Reason code,Reason,Note,Product')).toBe(true);
    const rows = parseSync(text, { bom: true, columns: true }) as Record<string, string>[];
    expect(Number(csv.headers['x-total-rows'])).toBe(rows.length);
    const row = rows.find((r) => r.Charge === charge.identifier)!;
    expect(row).toMatchObject({
      'Reason code': 'other',
      Reason: 'Other',
      Note: `'=HYPERLINK("x")`,
      Product: 'Reasons Basics',
      Purchase: purchase.id,
      'Buyer email': 'csv@example.com',
      'Amount (cents)': '700',
      Currency: 'usd',
      'Requested by': support.user.email,
    });
    expect(rows.find((r) => r['Reason code'] === 'provider')).toMatchObject({ 'Requested by': 'Payment provider' });
  });

  it('stores a dispute’s evidence due date from the provider and lists disputes by it, with charge, buyer and purchase', async () => {
    const soon = await sold(advanced, 'dispute-soon@example.com');
    const late = await sold(basics, 'dispute-later@example.com');
    const overdue = await sold(basics, 'dispute-overdue@example.com');
    const dueSoon = new Date(Math.floor(Date.now() / 1000 + 36 * 3600) * 1000);
    const dueLater = new Date(Math.floor(Date.now() / 1000 + 10 * 86_400) * 1000);
    const dueBefore = new Date(Math.floor(Date.now() / 1000 - 3600) * 1000);
    const opened = [
      stripe.openDispute(late.charge.identifier, { dueBy: dueLater }),
      stripe.openDispute(soon.charge.identifier, { dueBy: dueSoon }),
      stripe.openDispute(overdue.charge.identifier, { dueBy: dueBefore }),
    ];
    for (const { event } of opened) expect((await deliver(event)).status).toBe(200);

    expect(await db()('merchantDisputes').where({ identifier: opened[1]!.dispute }).first()).toMatchObject({
      status: 'open',
      evidenceDueBy: dueSoon,
      amount: 6_000,
      reason: 'fraudulent',
    });

    const list = await as(support, request(app).get('/api/admin/merchant-disputes')).query({
      filter: JSON.stringify({ status: 'open' }),
    });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    const ours = (list.body as { identifier: string }[]).filter((d) => opened.some((o) => o.dispute === d.identifier));
    expect(ours.map((d) => d.identifier)).toEqual([opened[2]!.dispute, opened[1]!.dispute, opened[0]!.dispute]);
    expect(ours[1]).toMatchObject({
      currency: 'usd',
      userId: soon.purchase.userId,
      purchaseId: soon.purchase.id,
      evidenceDueBy: dueSoon.toISOString(),
    });

    const stakes = await as(finance, request(app).get('/api/admin/reports/disputes')).query({
      from: day(new Date(Date.now() - 13 * DAY_MS)),
      to: day(new Date()),
    });
    expect(stakes.status).toBe(200);
    expect(stakes.body.open.count).toBeGreaterThanOrEqual(3);
    expect(stakes.body.overdue).toBeGreaterThanOrEqual(1);
    expect(stakes.body.dueSoon).toBeGreaterThanOrEqual(1);
    const weeks = stakes.body.weeks as { week: string; open: number }[];
    expect(weeks.length).toBeGreaterThanOrEqual(2);
    expect(weeks.reduce((n, w) => n + w.open, 0)).toBeGreaterThanOrEqual(3);

    // Closing keeps the date; the closed dispute leaves the open ones.
    expect((await deliver(stripe.closeDispute(opened[1]!.dispute, 'won'))).status).toBe(200);
    expect(await db()('merchantDisputes').where({ identifier: opened[1]!.dispute }).first()).toMatchObject({
      status: 'won',
      evidenceDueBy: dueSoon,
    });
  });
});
