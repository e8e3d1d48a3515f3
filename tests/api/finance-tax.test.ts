import fc from 'fast-check';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { MigrationDirectory } from '../../api/src/db/migrations';
import { testProviderFee } from '../../api/src/payments/test-provider';
import { taxInside, taxOnTop, taxRefunded } from '../../api/src/tax/amounts';
import { createCoupon, createProduct, createUser } from '../../seeds/factories';
import { testConfig, testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { csvRows } from '../support/csv';
import { useTestDatabase } from '../support/db';
import { setSchoolTax, TEST_RATES } from '../support/school-tax';

/**
 * Finance's figures with tax in the price (docs/api.md §6): tax is never revenue, so the charges export's net and the
 * dashboard's revenue are what the split ledger shares out, and the tax stands beside them. A school established in
 * Germany, registered in Washington State; euro prices include tax, dollar prices do not.
 */
describe('finance figures with tax', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const config = testConfig({ TRUST_PROXY: 'true', COUNTRY_HEADER: 'cf-ipcountry', REGION_HEADER: 'cf-region' });
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let euro: { id: string };
  let dollar: { id: string };
  let finance: SignedIn;
  let support: SignedIn;
  const today = () => new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    app = createApp(testDeps(db(), { config })).callback();
    await setSchoolTax(db(), {
      registrations: [{ country: 'US', region: 'WA' }],
      rates: TEST_RATES.filter((rate) => rate.country === 'DE' || rate.region === 'WA'),
    });
    euro = await createProduct(db(), { name: 'Finance Euro Course', unitAmount: 11900, currency: 'eur' });
    dollar = await createProduct(db(), { name: 'Finance Dollar Course', unitAmount: 4900, currency: 'usd' });
    finance = await signedIn(db(), ['finance']);
    support = await signedIn(db(), ['support']);
  });

  /** A buyer somewhere pays through checkout and the provider's page: the purchase and its charge. */
  async function bought(body: object, country: string, region?: string) {
    const place = { 'cf-ipcountry': country, ...(region && { 'cf-region': region }) };
    const started = await request(app).post('/api/store/checkout').set(place).send(body);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const { pathname } = new URL(started.body.url);
    expect((await request(app).post(`${pathname}/pay`)).status).toBe(303);
    expect((await request(app).get(`/api/store/checkouts/${started.body.checkoutId}`)).body.status).toBe('fulfilled');
    return db()('checkouts as k')
      .join('purchases as p', 'p.id', 'k.purchaseId')
      .join('merchantCharges as c', 'c.id', 'p.merchantChargeId')
      .where('k.id', started.body.checkoutId)
      .first('p.id as purchaseId', 'c.*');
  }

  const exported = async (kind: string) =>
    csvRows(
      (
        await as(finance, request(app).get(`/api/admin/exports/${kind}.csv`).query({ from: today(), to: today() }))
          .buffer(true)
          .parse((res, done) => {
            let text = '';
            res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
            res.on('end', () => done(null, text));
          })
      ).body as string,
    );

  it('exports charges whose net is the split lines: tax and refunded tax in columns of their own', async () => {
    // Sales tax on top of a coupon's price, then part of it refunded; VAT inside a euro price.
    const coupon = await createCoupon(db(), { percentageDiscount: 0.2, restrictedToProductId: dollar.id });
    const wa = await bought(
      { productId: dollar.id, email: 'wa.finance@example.com', coupon: coupon.code, billing: { region: 'WA' } },
      'US',
      'WA',
    );
    const waTax = taxOnTop(3920, 650);
    expect(wa).toMatchObject({ amount: 3920 + waTax, taxAmount: waTax });
    const refunded = await as(support, request(app).post(`/api/admin/purchases/${wa.purchaseId}/refund`)).send({
      amount: 2000,
      reasonCode: 'customer-request',
      reason: 'Part of it',
    });
    expect(refunded.status).toBe(200);
    const de = await bought({ productId: euro.id, email: 'de.finance@example.com' }, 'DE');
    expect(de).toMatchObject({ amount: 11900, taxAmount: taxInside(11900, 1900) });

    const charges = await exported('charges');
    const lines = await exported('split-lines');
    const sum = (charge: string, kind: string) =>
      lines.filter((l) => l.Charge === charge && l.Kind === kind).reduce((n, l) => n + Number(l['Amount (cents)']), 0);

    const waRow = charges.find((r) => r.Charge === wa.identifier)!;
    const refundedTax = taxRefunded(2000, wa.amount, waTax);
    expect(waRow).toMatchObject({
      'Gross (cents)': String(3920 + waTax),
      'Tax (cents)': String(waTax),
      'Fee (cents)': String(testProviderFee(wa.amount)),
      'Net (cents)': String(3920 - testProviderFee(wa.amount)),
      'Refunded (cents)': '2000',
      'Refunded tax (cents)': String(refundedTax),
      Coupon: coupon.code,
      'List price (cents)': '4900',
      // The coupon's 20 %: the price before the tax added on top of it.
      'Discount (cents)': '980',
    });
    expect(sum(wa.identifier, 'sale')).toBe(Number(waRow['Net (cents)']));
    expect(sum(wa.identifier, 'refund')).toBe(-(2000 - refundedTax));

    const deRow = charges.find((r) => r.Charge === de.identifier)!;
    expect(deRow).toMatchObject({
      'Gross (cents)': '11900',
      'Tax (cents)': String(de.taxAmount),
      'Net (cents)': String(11900 - de.taxAmount - de.fee),
      'Refunded tax (cents)': '0',
      'Discount (cents)': '0',
    });
    expect(sum(de.identifier, 'sale')).toBe(Number(deRow['Net (cents)']));

    // Every charge of the day: gross = tax + fee + net, and the net is what the ledger shares out.
    for (const row of charges) {
      const [gross, tax, fee, net] = ['Gross', 'Tax', 'Fee', 'Net'].map((c) => Number(row[`${c} (cents)`]));
      expect(gross).toBe(tax! + fee! + net!);
      expect(sum(row.Charge!, 'sale')).toBe(net);
    }
  });

  it("shows the dashboard's revenue net of tax, with the tax beside it, adding up to the ledger's net", async () => {
    // The first test's sales: sales tax on a dollar sale partly refunded, VAT inside a euro one.
    for (const currency of ['usd', 'eur']) {
      const answer = await as(finance, request(app).get('/api/admin/dashboard').query({ currency }));
      expect(answer.status).toBe(200);
      const { totals, revenueByDay } = answer.body;
      const charges = await db()('merchantCharges').where({ currency }).select('amount', 'taxAmount', 'fee');
      const sum = (key: 'amount' | 'taxAmount' | 'fee') => charges.reduce((n, c) => n + c[key], 0);
      expect(sum('taxAmount')).toBeGreaterThan(0);
      expect(totals).toMatchObject({ gross: sum('amount'), tax: sum('taxAmount'), fees: sum('fee'), disputed: 0 });
      expect(revenueByDay.at(-1)).toMatchObject({ gross: sum('amount'), tax: sum('taxAmount') });
      // Revenue is what was charged less its tax; less fees and refunds (net of their tax), the ledger's net.
      expect(totals.gross - totals.tax - totals.fees - totals.refunded - totals.disputed).toBe(totals.net);
      const ledger = await db()('splitLines').where({ currency }).sum({ total: 'amount' }).first();
      expect(totals.net).toBe(Number(ledger!.total));
    }
  });
  /**
   * The tax report and the tax summary read a daily rollup of the documents kept by their inserts
   * (migrations/20261202020000). After a seeded random run of invoices, credit notes (some of an earlier quarter's
   * sale), corrected invoices, reverse charges, untaxed sales and sales in three currencies, written straight to the
   * table in several-row statements (and the sales and refund above, written by the product), both answers equal the
   * documents summed directly, for several periods. The documents are written after the database was migrated, so
   * without the rollup's trigger the answers would miss them; after the migration is run again, its backfill gives
   * the same answers.
   */
  it('reports tax from the daily rollup exactly as from the documents summed directly', async () => {
    const payer = await createUser(db(), { email: 'rollup.payer@example.com' });
    const [account] = await db()('merchantAccounts')
      .insert({ label: 'test', identifier: 'acct_test' })
      .onConflict('label')
      .merge(['label'])
      .returning('id');
    const [merchantProduct] = await db()('merchantProducts')
      .insert({ merchantAccountId: account.id, identifier: 'prod_rollup', productId: euro.id })
      .returning('id');
    const [charge] = await db()('merchantCharges')
      .insert({
        ...{ merchantAccountId: account.id, merchantProductId: merchantProduct.id, identifier: 'ch_rollup' },
        ...{ amount: 1000, net: 1000, fee: 0, currency: 'eur', userId: payer.id },
      })
      .returning('id');

    const taxed = (
      taxScheme: string,
      taxCountry: string,
      taxRegion: string | null,
      taxRateBp: number,
      taxName: string,
    ) => ({ taxScheme, taxCountry, taxRegion, taxRateBp, taxName, taxInclusive: taxScheme !== 'registration' });
    const untaxed = { taxScheme: 'not-taxed', taxCountry: null, taxRegion: null, taxRateBp: null, taxName: null };
    const PLACES = [
      taxed('domestic', 'DE', null, 1900, 'VAT'),
      taxed('eu-oss', 'FR', null, 2000, 'VAT'),
      taxed('eu-oss', 'IT', null, 2200, 'VAT'),
      { ...taxed('reverse-charge', 'FR', null, 0, 'VAT'), taxReverseCharge: true },
      taxed('registration', 'US', 'WA', 650, 'Sales tax'),
      taxed('registration', 'CA', 'QC', 1497.5, 'GST + QST'),
      untaxed,
    ];
    const BUYERS = [{ country: 'BR' }, { country: 'US', region: 'CA' }, {}, { country: 'DE' }];
    const DAY_MS = 86_400_000;
    const sale = fc.record({
      daysAgo: fc.integer({ min: 0, max: 500 }),
      minute: fc.integer({ min: 0, max: 1439 }),
      currency: fc.constantFrom('eur', 'usd', 'jpy'),
      place: fc.nat(PLACES.length - 1),
      buyer: fc.nat(BUYERS.length - 1),
      taxable: fc.integer({ min: 0, max: 50_000 }),
    });
    const later = fc.record({
      pick: fc.nat(1000),
      correction: fc.boolean(),
      daysAfter: fc.integer({ min: 0, max: 120 }),
      percent: fc.integer({ min: 1, max: 100 }),
    });
    const [run] = fc.sample(
      fc.tuple(fc.array(sale, { minLength: 60, maxLength: 80 }), fc.array(later, { minLength: 30, maxLength: 40 })),
      { seed: 20261202, numRuns: 1 },
    );
    const [sales, laters] = run!;

    const inserted = async (rows: Record<string, unknown>[]) => {
      const ids: { id: string }[] = [];
      // A few documents per statement: the trigger sums each statement's rows at once.
      for (let i = 0; i < rows.length; i += 7)
        ids.push(
          ...(await db()('invoices')
            .insert(rows.slice(i, i + 7))
            .returning('id')),
        );
      return ids.map((r) => r.id);
    };
    const now = Date.now();
    const document = (s: (typeof sales)[number]) => {
      const { taxReverseCharge = false, ...place } = PLACES[s.place]! as (typeof PLACES)[number] & {
        taxReverseCharge?: boolean;
      };
      const tax = place.taxRateBp ? Math.round((s.taxable * place.taxRateBp) / 10_000) : 0;
      return {
        ...{ kind: 'invoice', suppliedAt: new Date(now - s.daysAgo * DAY_MS - s.minute * 60_000), ...place },
        ...{ taxReverseCharge, merchantChargeId: charge.id, payerUserId: payer.id, currency: s.currency },
        seller: JSON.stringify({ name: 'School', country: 'DE' }),
        buyer: JSON.stringify({ name: 'Buyer', email: payer.email, ...BUYERS[s.buyer] }),
        lines: JSON.stringify([]),
        ...{ subtotal: s.taxable, taxable: s.taxable, taxAmount: tax, total: s.taxable + tax },
      };
    };
    const saleDocuments = sales.map(document);
    const saleIds = await inserted(saleDocuments);
    await inserted(
      laters.map((l, n) => {
        const of = l.pick % sales.length;
        const original = saleDocuments[of]!;
        const suppliedAt = new Date(Math.min(now, original.suppliedAt.getTime() + l.daysAfter * DAY_MS));
        if (l.correction) return { ...original, correctsId: saleIds[of], issuedAt: suppliedAt };
        const part = (amount: number) => Math.floor((amount * l.percent) / 100);
        const [taxable, taxAmount] = [part(original.taxable), part(original.taxAmount)];
        return {
          ...{ ...original, kind: 'credit-note', invoiceId: saleIds[of], refundedTo: 1_000_000 + n, suppliedAt },
          ...{ subtotal: taxable, taxable, taxAmount, total: taxable + taxAmount },
        };
      }),
    );

    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const quarterStart = new Date(
      Date.UTC(new Date(now).getUTCFullYear(), Math.floor(new Date(now).getUTCMonth() / 3) * 3),
    );
    const periods = [
      { from: day(now - 365 * DAY_MS), to: day(now + DAY_MS) },
      { from: day(quarterStart.getTime()), to: day(now + DAY_MS) },
      { from: day(now - 40 * DAY_MS), to: day(now - 3 * DAY_MS) },
      { from: day(now - 500 * DAY_MS), to: day(now - 200 * DAY_MS) },
      { from: day(now - 130 * DAY_MS), to: day(now - 129 * DAY_MS) },
    ];

    /** A period's bounds as instants: its first day's start (UTC), and its end's. */
    const instants = ({ from, to }: { from: string; to: string }) => ({
      from: `${from}T00:00:00Z`,
      to: `${to}T00:00:00Z`,
    });
    /** The report's rows summed straight from the documents: each row's key and its counts and sums. */
    const direct = async (period: { from: string; to: string }) => {
      const { rows } = await db().raw(
        `SELECT d.currency, CASE d.tax_scheme WHEN 'registration' THEN 'other-registration' ELSE d.tax_scheme END AS scheme,
                COALESCE(d.tax_country, d.buyer->>'country') AS country,
                CASE WHEN d.tax_country IS NULL THEN d.buyer->>'region' ELSE d.tax_region END AS region,
                d.tax_name, d.tax_rate_bp::float8 AS rate,
                CASE WHEN d.kind = 'credit-note' AND sale.supplied_at < :from::timestamptz
                     THEN to_char(sale.supplied_at AT TIME ZONE 'UTC', 'YYYY-"Q"Q') END AS corrects,
                count(*) FILTER (WHERE d.kind = 'invoice') AS invoices,
                COALESCE(sum(d.taxable) FILTER (WHERE d.kind = 'invoice'), 0) AS taxable,
                COALESCE(sum(d.tax_amount) FILTER (WHERE d.kind = 'invoice'), 0) AS tax,
                count(*) FILTER (WHERE d.kind = 'credit-note') AS credit_notes,
                COALESCE(sum(d.taxable) FILTER (WHERE d.kind = 'credit-note'), 0) AS refunded_taxable,
                COALESCE(sum(d.tax_amount) FILTER (WHERE d.kind = 'credit-note'), 0) AS refunded_tax
           FROM invoices d LEFT JOIN invoices sale ON sale.id = d.invoice_id
          WHERE d.supplied_at >= :from::timestamptz AND d.supplied_at < :to::timestamptz
            AND (d.kind = 'credit-note' OR d.corrects_id IS NULL)
          GROUP BY 1, 2, 3, 4, 5, 6, 7`,
        instants(period),
      );
      return new Map(
        (rows as Record<string, string | number | null>[]).map((r) => {
          const values = Object.values(r).map((v) => (v == null ? '' : String(v)));
          return [values.slice(0, 7).join('|'), values.slice(7).map(Number)];
        }),
      );
    };
    const reported = async (period: { from: string; to: string }) => {
      const answer = await as(finance, request(app).get('/api/admin/finance/tax-report.csv').query(period))
        .buffer(true)
        .parse((res, done) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
          res.on('end', () => done(null, text));
        });
      expect(answer.status).toBe(200);
      // Minor units back from the currency's decimals ("12.50" → 1250, ¥500 → 500), the rate back in basis points.
      const minor = (text: string) => Number(text.replace('.', ''));
      return new Map(
        csvRows(answer.body as string).map((r) => {
          expect(r['Tax in lost disputes']).toMatch(/^0(\.00)?$/);
          const rate = r['Rate (%)'] ? String(Math.round(Number(r['Rate (%)']) * 1000) / 10) : '';
          const key = [r.Currency, r.Scheme, r.Country, r.Region, r['Tax name'], rate, r['Corrects period']];
          const counts = [r.Invoices, r['Credit notes']].map(Number);
          const sums = ['Taxable amount', 'Tax', 'Refunded taxable amount', 'Refunded tax'].map((c) => minor(r[c]!));
          return [key.join('|'), [counts[0]!, sums[0]!, sums[1]!, counts[1]!, sums[2]!, sums[3]!]];
        }),
      );
    };
    const compared = async () => {
      for (const period of periods) {
        const [expected, answer] = [await direct(period), await reported(period)];
        expect(new Map([...answer].sort()), JSON.stringify(period)).toEqual(new Map([...expected].sort()));
      }
      // The summary's tax per month and country, in each currency.
      const year = periods[0]!;
      for (const currency of ['eur', 'usd', 'jpy']) {
        const { rows } = await db().raw(
          `SELECT to_char(supplied_at AT TIME ZONE 'UTC', 'YYYY-MM') AS month, tax_country AS country,
                  COALESCE(sum(tax_amount) FILTER (WHERE kind = 'invoice'), 0)::int AS collected,
                  COALESCE(sum(tax_amount) FILTER (WHERE kind = 'credit-note'), 0)::int AS refunded
             FROM invoices
            WHERE supplied_at >= :from::timestamptz AND supplied_at < :to::timestamptz AND currency = :currency AND tax_amount > 0
              AND (kind = 'credit-note' OR corrects_id IS NULL)
            GROUP BY 1, 2 ORDER BY 1, 2`,
          { ...instants(year), currency },
        );
        const summary = await as(
          finance,
          request(app)
            .get('/api/admin/finance/tax-summary')
            .query({ ...year, currency }),
        );
        expect(summary.status).toBe(200);
        const byPlace = (list: { month: string; country: string; collected: number; refunded: number }[]) =>
          list
            .map(({ month, country, collected, refunded }) => ({ month, country, collected, refunded }))
            .sort((a, b) => `${a.month}${a.country}`.localeCompare(`${b.month}${b.country}`));
        expect(byPlace(summary.body.byMonthAndCountry), currency).toEqual(byPlace(rows));
      }
    };

    // The run reaches what the rollup must tell apart: a credit note of an earlier quarter's sale, a reverse charge,
    // an untaxed sale named by the buyer's place, corrections left out, each currency.
    const keys = (await Promise.all(periods.map(direct))).flatMap((rows) => [...rows.keys()]);
    expect(keys.some((k) => /\|\d{4}-Q\d$/.test(k))).toBe(true);
    expect(keys.some((k) => k.includes('|reverse-charge|'))).toBe(true);
    expect(keys.some((k) => k.includes('|not-taxed|BR|'))).toBe(true);
    expect(laters.some((l) => l.correction)).toBe(true);
    expect(new Set(keys.map((k) => k.split('|')[0]))).toEqual(new Set(['eur', 'usd', 'jpy']));
    await compared();

    // Built again from the documents by the migration's backfill: the same answers.
    const migration = { migrationSource: new MigrationDirectory(), name: '20261202020000_add_daily_tax_rollups.ts' };
    await db().migrate.down(migration);
    await db().migrate.up(migration);
    await compared();
  });
});
