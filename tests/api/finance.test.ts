import { parse } from 'csv-parse';
import { parse as parseSync } from 'csv-parse/sync';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { type Product, Purchase } from '../support/models';
import { createServices, type Services } from '../../api/src/services';
import { createCoupon, createProduct, createRevenueSplit, createUser } from '../../seeds/factories';
import { testConfig, testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { sessionOfCheckout } from '../support/checkout';
import { useTestDatabase } from '../support/db';
import { standInEnv, startStripeStandIn, type StandIn, deliverSigned } from '../support/stripe-stand-in';

describe('finance: the split ledger, exports and charts (docs/domain.md §9)', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let stripe: StandIn;
  let services: Services;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let product: Product;
  let finance: SignedIn;
  let support: SignedIn;
  const owner = { id: '' };
  const contributor = { id: '' };

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    const deps = testDeps(db(), { config: testConfig(standInEnv(stripe)) });
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    product = await createProduct(db(), { name: 'Split Course', unitAmount: 10_000 });
    owner.id = (await createUser(db(), { email: 'owner@example.com' })).id;
    contributor.id = (await createUser(db(), { email: 'contributor@example.com' })).id;
    await createRevenueSplit(db(), { productId: product.id, type: 'platform', percent: 0.3 });
    await createRevenueSplit(db(), { productId: product.id, type: 'owner', percent: 0.5, userId: owner.id });
    await createRevenueSplit(db(), {
      productId: product.id,
      type: 'contributor',
      percent: 0.2,
      userId: contributor.id,
    });
    finance = await signedIn(db(), ['finance']);
    support = await signedIn(db(), ['support']);
  });
  afterAll(() => stripe?.close());

  const deliver = (event: Parameters<typeof deliverSigned>[1]) => deliverSigned(app, event);
  /** The charges export of one day, read whole as text. */
  const chargesCsv = (day: string) =>
    as(finance, request(app).get('/api/admin/exports/charges.csv').query({ from: day, to: day }))
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => done(null, text));
      });
  async function sold(email: string, of: Product = product) {
    const { checkoutId } = await services.checkouts.create({
      productId: of.id,
      quantity: 1,
      team: false,
      ppp: false,
      email,
      buyer: null,
      country: 'US',
      ip: null,
    });
    await deliver(stripe.pay(await sessionOfCheckout(db(), checkoutId)));
    const purchase = (await Purchase.query(db()).findOne({
      id: (await services.checkouts.fulfil(checkoutId)).purchaseId!,
    }))!;
    const charge = await db()('merchantCharges').where({ id: purchase.merchantChargeId }).first();
    return { purchase, charge };
  }
  const lines = (chargeId: string) => db()('splitLines').where({ merchantChargeId: chargeId }).orderBy('id');
  const total = (rows: { amount: number }[]) => rows.reduce((s, l) => s + l.amount, 0);

  it('writes sale lines that sum to the net, then refund and dispute lines, never editing one', async () => {
    const { purchase, charge } = await sold('ledger@example.com');
    const sale = await lines(charge.id);
    expect(total(sale)).toBe(charge.net);
    const platformLine = sale.find((l: { recipientType: string }) => l.recipientType === 'platform');
    expect(platformLine.amount).toBe(Math.round(charge.amount * 0.3));
    const ownerLine = sale.find((l: { userId: string }) => l.userId === owner.id);
    const contributorLine = sale.find((l: { userId: string }) => l.userId === contributor.id);
    expect(ownerLine.amount + contributorLine.amount).toBe(charge.net - platformLine.amount);
    expect(Math.abs(ownerLine.amount - 2.5 * contributorLine.amount)).toBeLessThanOrEqual(3); // 50 : 20

    await as(support, request(app).post(`/api/admin/purchases/${purchase.id}/refund`)).send({
      amount: 1_000,
      reasonCode: 'customer-request',
      reason: 'Partial',
    });
    expect(total(await lines(charge.id))).toBe(charge.net - 1_000);
    // Stripe's own event for the same refund adds nothing.
    await deliver(stripe.chargeRefundedEvent(charge.identifier));
    expect(total(await lines(charge.id))).toBe(charge.net - 1_000);

    await expect(db()('splitLines').where({ merchantChargeId: charge.id }).update({ amount: 0 })).rejects.toThrow(
      /append-only/,
    );
    await expect(db()('splitLines').where({ merchantChargeId: charge.id }).delete()).rejects.toThrow(/append-only/);

    await as(support, request(app).post(`/api/admin/purchases/${purchase.id}/refund`)).send({
      reasonCode: 'customer-request',
      reason: 'The rest',
    });
    const after = await lines(charge.id);
    expect(total(after)).toBe(charge.net - charge.amount);
    // Every recipient gave back in proportion: nobody is left positive but the fee is the platform's loss.
    expect(
      after.filter((l: { kind: string }) => l.kind === 'refund').every((l: { amount: number }) => l.amount <= 0),
    ).toBe(true);
  });

  it('balances disputes: won gives the money back, lost keeps it withdrawn, in any event order', async () => {
    const won = await sold('won@example.com');
    const opened = stripe.openDispute(won.charge.identifier);
    await deliver(opened.event);
    expect(total(await lines(won.charge.id))).toBe(won.charge.net - won.charge.amount);
    await deliver(stripe.closeDispute(opened.dispute, 'won'));
    await deliver({ ...opened.event, id: `${opened.event.id}_late` });
    expect(total(await lines(won.charge.id))).toBe(won.charge.net);

    const lost = await sold('lost@example.com');
    const lostDispute = stripe.openDispute(lost.charge.identifier);
    await deliver(stripe.closeDispute(lostDispute.dispute, 'lost')); // the close arrives first
    await deliver(lostDispute.event);
    await deliver({ ...stripe.closeDispute(lostDispute.dispute, 'lost'), id: 'evt_again' });
    expect(total(await lines(lost.charge.id))).toBe(lost.charge.net - lost.charge.amount);
  });

  it("keeps a product's splits at most 100 % when editors add them at the same time", async () => {
    const contested = await createProduct(db(), { name: 'Contested Course' });
    const editors = await Promise.all(Array.from({ length: 10 }, () => signedIn(db(), ['finance'])));
    const answers = await Promise.all(
      editors.map((editor) =>
        as(editor, request(app).post('/api/admin/product-revenue-splits')).send({
          productId: contested.id,
          type: 'owner',
          percent: 0.3,
          userId: owner.id,
        }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
    for (const refused of answers.filter((a) => a.status !== 201))
      expect(refused.body.errors.percent).toContain('at most 100 %');
    const [sum] = await db()('productRevenueSplits').where({ productId: contested.id }).sum({ total: 'percent' });
    expect(Number(sum?.total)).toBeCloseTo(0.9, 6);
  });

  it('lets finance and admins export, nobody else, and refuses bad periods clearly', async () => {
    const url = '/api/admin/exports/charges.csv';
    const period = { from: '2020-01-01', to: '2100-12-31' };
    expect((await request(app).get(url).query(period)).status).toBe(401);
    expect((await as(support, request(app).get(url).query(period))).status).toBe(403);
    expect((await as(await signedIn(db()), request(app).get(url).query(period))).status).toBe(403);
    expect((await as(await signedIn(db(), ['admin']), request(app).get(url).query(period))).status).toBe(200);

    const reversed = await as(finance, request(app).get(url).query({ from: '2026-02-01', to: '2026-01-01' }));
    expect(reversed.status).toBe(400);
    expect(reversed.body).toMatchObject({
      code: 'validation-failed',
      errors: { from: expect.stringContaining('after') },
    });
    const bad = await as(finance, request(app).get(url).query({ from: '2026-13-01', to: '2026-01-01' }));
    expect(bad.body.errors.from).toContain('YYYY-MM-DD');
    expect((await as(finance, request(app).get(url).query({ from: '2026-01-01' }))).body.errors.to).toBeTruthy();
    const tooLong = await as(
      finance,
      request(app).get('/api/admin/finance/summary').query({ from: '2020-01-01', to: '2026-01-01' }),
    );
    expect(tooLong.status).toBe(400);
  });

  it('says in the charges CSV how each price came about: the sale as its coupon, seats, list price and discount', async () => {
    const course = await createProduct(db(), { name: 'Sale-priced course', unitAmount: 10_000 });
    await createCoupon(db(), { default: true, code: null, percentageDiscount: 0.25, restrictedToProductId: course.id });
    const bought: Record<string, string> = {};
    for (const [quantity, team] of [
      [1, false],
      [3, true],
    ] as const) {
      const { checkoutId } = await services.checkouts.create({
        productId: course.id,
        quantity,
        team,
        ppp: false,
        buyer: await createUser(db()),
        country: 'US',
        ip: null,
      });
      await deliver(stripe.pay(await sessionOfCheckout(db(), checkoutId)));
      bought[quantity] = (await services.checkouts.fulfil(checkoutId)).purchaseId!;
    }
    const today = new Date().toISOString().slice(0, 10);
    const csv = await chargesCsv(today);
    const rows = parseSync(csv.body as string, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows.find((r) => r.Purchase === bought[1])).toMatchObject({
      Coupon: 'Sale',
      Seats: '1',
      'List price (cents)': '10000',
      'Upgrade credit (cents)': '0',
      'Discount (cents)': '2500',
      'Gross (cents)': '7500',
    });
    expect(rows.find((r) => r.Purchase === bought[3])).toMatchObject({
      Coupon: 'Sale',
      Seats: '3',
      'List price (cents)': '30000',
      'Discount (cents)': '7500',
      'Gross (cents)': '22500',
    });
    await db()('coupons').where({ restrictedToProductId: course.id, default: true }).update({ status: 'inactive' });
  });

  it('neutralises cells that a spreadsheet would run as formulas, and keeps amounts as numbers', async () => {
    const hostile = await createProduct(db(), { name: '=HYPERLINK("http://evil.example","x")', unitAmount: 5_000 });
    const buyer = await createUser(db(), { email: 'formula@example.com', name: '@SUM(1+1)' });
    for (const name of ['+cmd', '-2+3', '@attack', '\tTabbed']) {
      await db()('products').insert({ name, slug: `p-${Math.random().toString(36).slice(2)}` });
    }
    const { checkoutId } = await services.checkouts.create({
      productId: hostile.id,
      quantity: 1,
      team: false,
      ppp: false,
      buyer,
      country: 'US',
      ip: null,
    });
    await deliver(stripe.pay(await sessionOfCheckout(db(), checkoutId)));
    const purchase = (await Purchase.query(db()).findById((await services.checkouts.fulfil(checkoutId)).purchaseId!))!;
    await as(support, request(app).post(`/api/admin/purchases/${purchase.id}/refund`)).send({
      amount: 700,
      reasonCode: 'customer-request',
      reason: '=1+1 spreadsheet trick',
    });

    const today = new Date().toISOString().slice(0, 10);
    const csv = await chargesCsv(today);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="charges-${today}-to-${today}.csv"`);
    const text = csv.body as string;
    expect(text.startsWith('\uFEFFDate,Charge,Purchase,Product')).toBe(true);
    expect(text).toContain('\r\n');
    const rows = parseSync(text, { bom: true, columns: true }) as Record<string, string>[];
    const row = rows.find((r) => r.Purchase === purchase.id)!;
    expect(row.Product).toBe(`'=HYPERLINK("http://evil.example","x")`);
    expect(row['Refunded (cents)']).toBe('700');
    expect(Number(row['Gross (cents)'])).toBe(purchase.totalAmount);

    const lines = parseSync(
      (
        await as(finance, request(app).get('/api/admin/exports/split-lines.csv').query({ from: today, to: today }))
          .buffer(true)
          .parse((res, done) => {
            let t = '';
            res.on('data', (c: Buffer) => (t += c.toString('utf8')));
            res.on('end', () => done(null, t));
          })
      ).body as string,
      { bom: true, columns: true },
    ) as Record<string, string>[];
    const refundLines = lines.filter(
      (l) => l.Product === `'=HYPERLINK("http://evil.example","x")` && l.Kind === 'refund',
    );
    expect(refundLines.length).toBeGreaterThan(0);
    expect(refundLines.every((l) => /^-\d+$/.test(l['Amount (cents)']!))).toBe(true); // a negative number, not neutralised
  });

  it('sums each recipient per period exactly as their lines, and charts the same ledger', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const text = (
      await as(
        finance,
        request(app).get('/api/admin/exports/recipients.csv').query({ from: today, to: today, period: 'day' }),
      )
    ).text;
    const summary = parseSync(text, { bom: true, columns: true }) as Record<string, string>[];
    const ledger = (await db()('splitLines')
      .select('userId', 'recipientType')
      .sum({ total: 'amount' })
      .count({ lines: '*' })
      .groupBy('userId', 'recipientType')) as {
      userId: string | null;
      recipientType: string;
      total: string | number;
      lines: string | number;
    }[];
    for (const recipient of ledger) {
      const email = recipient.userId ? (await db()('users').where({ id: recipient.userId }).first('email')).email : '';
      const row = summary.find(
        (r) => r['Recipient type'] === recipient.recipientType && r['Recipient email'] === email,
      );
      expect(row, `${recipient.recipientType} ${email} in ${text}`).toBeDefined();
      expect(Number(row!['Total (cents)'])).toBe(Number(recipient.total));
      expect(Number(row!.Lines)).toBe(Number(recipient.lines));
      expect(Number(row!['Sales (cents)']) + Number(row!['Refunds (cents)']) + Number(row!['Disputes (cents)'])).toBe(
        Number(recipient.total),
      );
    }

    const chart = await as(finance, request(app).get('/api/admin/finance/summary').query({ from: today, to: today }));
    expect(chart.status).toBe(200);
    const ledgerTotal = (await db()('splitLines').sum({ total: 'amount' }))[0]?.total;
    expect(chart.body).toMatchObject({ currency: 'usd', currencies: ['usd'] });
    expect(chart.body.totals.total).toBe(Number(ledgerTotal));
    expect(
      (
        await as(
          finance,
          request(app).get('/api/admin/finance/summary').query({ from: today, to: today, currency: 'eur' }),
        )
      ).body.totals.total,
    ).toBe(0);
    expect(chart.body.days).toEqual([expect.objectContaining({ day: today, total: Number(ledgerTotal) })]);
    expect(chart.body.products.map((p: { name: string }) => p.name)).toContain('Split Course');
    expect(chart.body.recipients.find((r: { email: string }) => r.email === 'owner@example.com').sales).toBeGreaterThan(
      0,
    );
  });

  it('charts by default the currency sold most in the period (dollars when tied), as the dashboard picks it', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const chart = async (query: { currency?: string } = {}) =>
      (
        await as(
          finance,
          request(app)
            .get('/api/admin/finance/summary')
            .query({ from: today, to: today, ...query }),
        )
      ).body;
    await sold('dollars@example.com');
    const [dollarSales] = (await db()('splitLines')
      .where({ kind: 'sale', currency: 'usd' })
      .countDistinct({ n: 'merchantChargeId' })) as { n: string }[];

    // As many sales in yen as in dollars: a tie, shown in dollars.
    const yen = await createProduct(db(), { name: 'Yen Course', unitAmount: 4_980, currency: 'jpy' });
    for (let i = 0; i < Number(dollarSales!.n); i++) await sold(`yen.${i}@example.com`, yen);
    expect(await chart()).toMatchObject({ currency: 'usd', currencies: ['jpy', 'usd'] });

    // One more in yen: the yen's figures, whole yen, none of the dollars'.
    await sold('yen.last@example.com', yen);
    const yenNet = total(await db()('splitLines').where({ currency: 'jpy' }));
    const byDefault = await chart();
    expect(byDefault).toMatchObject({
      currency: 'jpy',
      currencies: ['jpy', 'usd'],
      totals: { sales: yenNet, refunds: 0, disputes: 0, total: yenNet },
    });
    expect(byDefault.products.map((p: { name: string }) => p.name)).toEqual(['Yen Course']);
    // The one asked for still wins.
    expect((await chart({ currency: 'usd' })).currency).toBe('usd');
  });

  it('streams an export of 100,000 charges, every row read back and checked', async () => {
    const buyer = await createUser(db(), { email: 'bulk@example.com' });
    const account = await db()('merchantAccounts').where({ label: 'stripe' }).first('id');
    const mp = await db()('merchantProducts').where({ productId: product.id }).first('id');
    await db().raw(
      `INSERT INTO merchant_charges (merchant_account_id, identifier, amount, fee, net, currency, user_id, merchant_product_id, created_at)
       SELECT ?, 'ch_bulk_' || i, 1000 + i, i % 97, 1000 + i - i % 97, 'usd', ?, ?, timestamptz '2019-06-01' + (i || ' seconds')::interval
         FROM generate_series(1, 100000) AS i`,
      [account.id, buyer.id, mp.id],
    );
    await db().raw(
      `INSERT INTO purchases (user_id, product_id, status, total_amount, currency, country, merchant_charge_id, created_at)
       SELECT ?, ?, 'Valid', ch.amount, 'usd', 'US', ch.id, ch.created_at FROM merchant_charges ch WHERE ch.identifier LIKE 'ch_bulk_%'`,
      [buyer.id, product.id],
    );

    const response = await as(
      finance,
      request(app).get('/api/admin/exports/charges.csv').query({ from: '2019-06-01', to: '2019-06-02' }),
    )
      .buffer(true) // the parser below reads the response as it streams
      .parse((res, done) => {
        let expected = 1;
        let problems = 0;
        let firstMismatch: Record<string, string> | null = null;
        const parser = parse({ bom: true, columns: true });
        parser.on('data', (row: Record<string, string>) => {
          const i = expected++;
          const ok =
            row.Charge === `ch_bulk_${i}` &&
            row['Gross (cents)'] === String(1000 + i) &&
            row['Fee (cents)'] === String(i % 97) &&
            row['Net (cents)'] === String(1000 + i - (i % 97)) &&
            row['Refunded (cents)'] === '0' &&
            row['Buyer email'] === 'bulk@example.com' &&
            row.Status === 'Valid' &&
            row.Date === new Date(Date.UTC(2019, 5, 1) + i * 1000).toISOString();
          if (!ok && problems++ === 0) firstMismatch = row;
        });
        parser.on('end', () => done(null, { rows: expected - 1, problems, firstMismatch }));
        parser.on('error', done);
        res.pipe(parser);
      });
    expect(response.status).toBe(200);
    expect(response.headers['x-total-rows']).toBe('100000');
    expect(response.body).toEqual({ rows: 100_000, problems: 0, firstMismatch: null });
  }, 120_000);
});
