import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { testProviderFee } from '../../api/src/payments/test-provider';
import { taxInside, taxOnTop, taxRefunded } from '../../api/src/tax/amounts';
import { createCoupon, createProduct } from '../../seeds/factories';
import { testConfig, testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { csvRows } from '../support/csv';
import { useTestDatabase } from '../support/db';

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
    await db()('schoolSettings').update({
      taxCountry: 'DE',
      taxId: 'DE123456789',
      taxEuOss: true,
      taxInclusiveCurrencies: ['eur'],
    });
    await db()('taxRegistrations').delete();
    await db()('taxRegistrations').insert([{ country: 'US', region: 'WA' }]);
    await db()('taxRates').delete();
    await db()('taxRates').insert([
      { country: 'DE', region: null, rateBp: 1900, name: 'VAT' },
      { country: 'US', region: 'WA', rateBp: 650, name: 'Sales tax' },
    ]);
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
});
