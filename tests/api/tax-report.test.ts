import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { createServices } from '../../api/src/services';
import { taxInside, taxOnTop, taxShare } from '../../api/src/tax/amounts';
import { createProduct } from '../../seeds/factories';
import { testConfig, testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { csvRecords, csvRows } from '../support/csv';
import { useTestDatabase } from '../support/db';
import { setSchoolTax, TEST_RATES } from '../support/school-tax';

/**
 * The tax report for filing (docs/domain.md §18.7, docs/api.md): a school established in Germany, registered for
 * the EU's One-Stop Shop and in Washington State; euro prices include tax, dollar prices do not. Sales go through
 * checkout and the built-in provider, refunds through the console, so the invoices and credit notes are the ones the
 * product issues; only a sale of an earlier quarter (and one oddly named tax) is written to the tables directly.
 */
describe('the tax report', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const config = testConfig({ TRUST_PROXY: 'true', COUNTRY_HEADER: 'cf-ipcountry', REGION_HEADER: 'cf-region' });
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let euro: { id: string };
  let dollar: { id: string };
  let finance: SignedIn;
  let support: SignedIn;
  /** The quarter the tests run in, as the database's clock (which dates the documents) says, and the one before. */
  let quarter: { from: string; to: string; previous: string; previousDay: string };

  beforeAll(async () => {
    app = createApp(testDeps(db(), { config })).callback();
    await setSchoolTax(db(), {
      registrations: [{ country: 'US', region: 'WA' }],
      rates: TEST_RATES.filter((rate) => rate.country !== 'GB'),
    });
    euro = await createProduct(db(), { name: 'Report Euro Course', unitAmount: 11900, currency: 'eur' });
    dollar = await createProduct(db(), { name: 'Report Dollar Course', unitAmount: 4900, currency: 'usd' });
    finance = await signedIn(db(), ['finance']);
    support = await signedIn(db(), ['support']);
    const { rows } = await db().raw(`
      SELECT to_char(q, 'YYYY-MM-DD') AS "from", to_char(q + interval '3 months', 'YYYY-MM-DD') AS "to",
             to_char(q - interval '3 months', 'YYYY-"Q"Q') AS previous,
             to_char(q - interval '45 days', 'YYYY-MM-DD') AS "previousDay"
        FROM date_trunc('quarter', now() AT TIME ZONE 'UTC') AS q`);
    quarter = rows[0];
  });

  /** A buyer somewhere pays through checkout and the provider's page: the purchase and its charge. */
  async function bought(productId: string, email: string, billing: object, country: string, region?: string) {
    const place = { 'cf-ipcountry': country, ...(region && { 'cf-region': region }) };
    const started = await request(app).post('/api/store/checkout').set(place).send({ productId, email, billing });
    expect(started.status).toBe(201);
    const { pathname } = new URL(started.body.url);
    expect((await request(app).post(`${pathname}/pay`)).status).toBe(303);
    const done = await request(app).get(`/api/store/checkouts/${started.body.checkoutId}`);
    expect(done.body.status).toBe('fulfilled');
    return db()('checkouts as k')
      .join('purchases as p', 'p.id', 'k.purchaseId')
      .where('k.id', started.body.checkoutId)
      .first('p.id as purchaseId', 'p.merchantChargeId as chargeId');
  }

  const report = (who: SignedIn | undefined, query: Record<string, string>) =>
    as(who, request(app).get('/api/admin/finance/tax-report.csv').query(query))
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => done(null, text));
      });

  /** A charge written as it was (a sale of an earlier period), on the provider's records of the euro course. */
  async function writtenCharge(fields: Record<string, unknown>): Promise<string> {
    const [account] = await db()('merchantAccounts')
      .insert({ label: 'test', identifier: 'acct_test' })
      .onConflict('label')
      .merge(['label']) // the provider's account as checkout made it, or made here
      .returning('id');
    const [product] = await db()('merchantProducts')
      .insert({ merchantAccountId: account.id, identifier: `prod_${fields.identifier}`, productId: euro.id })
      .returning('id');
    const [charge] = await db()('merchantCharges')
      .insert({ merchantAccountId: account.id, merchantProductId: product.id, fee: 0, ...fields })
      .returning('id');
    return charge.id;
  }

  /** "-12.50" → -1250: the report's decimals back in minor units (two decimals for euros and dollars). */
  const cents = (text: string) => Number(text.replace('.', ''));

  /** What the documents of the period hold, summed straight from the table, per currency. */
  async function documentSums(currency: string) {
    const { rows } = await db().raw(
      `SELECT kind, count(*)::int AS n, sum(taxable)::int AS taxable, sum(tax_amount)::int AS tax FROM invoices
        WHERE currency = ? AND supplied_at >= ?::date AND supplied_at < ?::date
          AND (kind = 'credit-note' OR corrects_id IS NULL) GROUP BY kind`,
      [currency, quarter.from, quarter.to],
    );
    const of = (kind: string) => rows.find((r: { kind: string }) => r.kind === kind) ?? { n: 0, taxable: 0, tax: 0 };
    return { invoices: of('invoice'), creditNotes: of('credit-note') };
  }

  it('files each sale under its scheme, place and rate, refunds netted, sums exact to the documents', async () => {
    await bought(euro.id, 'de.consumer@example.com', {}, 'DE');
    const fr = await bought(euro.id, 'fr.consumer@example.com', { country: 'FR' }, 'DE');
    const business = { country: 'FR', vatId: 'FR12345678901', company: 'Atelier SARL', address: 'Paris' };
    const frBusiness = await bought(euro.id, 'fr.business@example.com', business, 'FR');
    const wa = await bought(dollar.id, 'wa@example.com', { region: 'WA' }, 'US', 'WA');
    await bought(dollar.id, 'ca@example.com', { region: 'CA' }, 'US', 'CA');
    // A partial refund of the French consumer's sale: its credit note gives back tax in proportion.
    const refunded = await as(support, request(app).post(`/api/admin/purchases/${fr.purchaseId}/refund`)).send({
      amount: 5950,
      reasonCode: 'customer-request',
      reason: 'Half the course',
    });
    expect(refunded.status).toBe(200);
    const creditNote = await db()('invoices').where({ merchantChargeId: fr.chargeId, kind: 'credit-note' }).first();
    expect(creditNote).toBeTruthy();
    // A corrected invoice (the business's address) is the same sale: counted once.
    const original = await db()('invoices').where({ merchantChargeId: frBusiness.chargeId, kind: 'invoice' }).first();
    await db()('invoices').insert({
      ...Object.fromEntries(
        Object.entries(original).filter(([k]) => !['id', 'number', 'sequence', 'issuedAt'].includes(k)),
      ),
      seller: JSON.stringify(original.seller),
      buyer: JSON.stringify({ ...original.buyer, address: '2 rue de la Paix, Paris' }),
      lines: JSON.stringify(original.lines),
      number: `${original.year}-990001`,
      sequence: 990001,
      correctsId: original.id,
    });

    const answer = await report(finance, { from: quarter.from, to: quarter.to });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toBe(
      `attachment; filename="tax-report-${quarter.from}-to-${quarter.to}.csv"`,
    );
    const text = answer.body as string;
    expect(csvRecords(text)[0]).toEqual([
      'Currency',
      'Scheme',
      'Country',
      'Region',
      'Tax name',
      'Rate (%)',
      'Invoices',
      'Taxable amount',
      'Tax',
      'Credit notes',
      'Refunded taxable amount',
      'Refunded tax',
      'Net taxable amount',
      'Net tax due',
      'Tax in lost disputes',
      'Corrects period',
    ]);
    const rows = csvRows(text);
    // Not counted before the rows are sent: the header line leaves before the period's sums are done.
    expect(answer.headers['x-total-rows']).toBeUndefined();
    // Nor compressed, though the client takes gzip: a compressor would hold the header line back until the sums.
    const zipped = await as(
      finance,
      request(app).get('/api/admin/finance/tax-report.csv').query(quarter).set('Accept-Encoding', 'gzip'),
    );
    expect(zipped.status).toBe(200);
    expect(zipped.headers['content-encoding']).toBeUndefined();
    const key = (r: Record<string, string>) => [r.Currency, r.Scheme, r.Country, r.Region, r['Rate (%)']].join(' ');
    expect(rows.map(key)).toEqual([
      'eur domestic DE  19.00',
      'eur eu-oss FR  20.00',
      'eur reverse-charge FR  0.00',
      'usd other-registration US WA 6.50',
      'usd not-taxed US CA ',
    ]);
    const row = (scheme: string) => rows.find((r) => r.Scheme === scheme)!;
    expect(row('domestic')).toMatchObject({
      'Tax name': 'VAT',
      Invoices: '1',
      'Taxable amount': '100.00',
      'Credit notes': '0',
      'Net tax due': '19.00',
      'Corrects period': '',
    });
    expect(cents(row('domestic').Tax!)).toBe(1900);
    const frTax = taxInside(11900, 2000);
    expect(row('eu-oss')).toMatchObject({ Invoices: '1', 'Credit notes': '1' });
    expect(cents(row('eu-oss').Tax!)).toBe(frTax);
    expect(cents(row('eu-oss')['Taxable amount']!)).toBe(11900 - frTax);
    expect(cents(row('eu-oss')['Refunded tax']!)).toBe(creditNote.taxAmount);
    expect(cents(row('eu-oss')['Refunded taxable amount']!)).toBe(5950 - creditNote.taxAmount);
    expect(cents(row('eu-oss')['Net tax due']!)).toBe(frTax - creditNote.taxAmount);
    expect(row('reverse-charge')).toMatchObject({ Invoices: '1', 'Taxable amount': '119.00', Tax: '0.00' });
    const waTax = taxOnTop(4900, 650);
    expect(row('other-registration')).toMatchObject({ 'Tax name': 'Sales tax', 'Taxable amount': '49.00' });
    expect(cents(row('other-registration')['Net tax due']!)).toBe(waTax);
    expect(row('not-taxed')).toMatchObject({ 'Tax name': '', 'Taxable amount': '49.00', 'Net tax due': '0.00' });
    expect(await db()('invoices').where({ merchantChargeId: wa.chargeId }).first('taxAmount')).toEqual({
      taxAmount: waTax,
    });

    // Every currency's rows sum exactly to its invoices less its credit notes.
    for (const currency of ['eur', 'usd']) {
      const mine = rows.filter((r) => r.Currency === currency);
      const sum = (column: string) => mine.reduce((n, r) => n + cents(r[column]!), 0);
      const { invoices, creditNotes } = await documentSums(currency);
      expect(mine.reduce((n, r) => n + Number(r.Invoices), 0)).toBe(invoices.n);
      expect(sum('Taxable amount')).toBe(invoices.taxable);
      expect(sum('Tax')).toBe(invoices.tax);
      expect(sum('Refunded taxable amount')).toBe(creditNotes.taxable);
      expect(sum('Refunded tax')).toBe(creditNotes.tax);
      expect(sum('Net taxable amount')).toBe(invoices.taxable - creditNotes.taxable);
      expect(sum('Net tax due')).toBe(invoices.tax - creditNotes.tax);
    }
  });

  it('files a sale under the scheme its invoice was issued under: a member state the school registered in itself', async () => {
    // Without the One-Stop Shop, registered in France directly: a French consumer pays French VAT, declared on the
    // French return, not the OSS one.
    await db()('schoolSettings').update({ taxEuOss: false });
    await db()('taxRegistrations').insert({ country: 'FR', region: null });
    try {
      const fr = await bought(euro.id, 'fr.registered@example.com', { country: 'FR' }, 'FR');
      expect(await db()('invoices').where({ merchantChargeId: fr.chargeId }).first('taxScheme', 'taxCountry')).toEqual({
        taxScheme: 'registration',
        taxCountry: 'FR',
      });
    } finally {
      await db()('schoolSettings').update({ taxEuOss: true });
      await db()('taxRegistrations').where({ country: 'FR' }).delete();
    }
    // Read after the school joined the One-Stop Shop: the invoice's scheme stands.
    const rows = csvRows((await report(finance, { from: quarter.from, to: quarter.to })).body as string);
    const france = rows.filter((r) => r.Country === 'FR' && r['Rate (%)'] === '20.00');
    expect(france.map((r) => [r.Scheme, r.Invoices])).toEqual([
      ['eu-oss', '1'],
      ['other-registration', '1'],
    ]);
    expect(cents(france[1]!.Tax!)).toBe(taxInside(11900, 2000));
  });

  it("shows the tax in disputes lost in the period on their sale's row, apart from the tax due", async () => {
    const sale = await bought(euro.id, 'de.disputed@example.com', {}, 'DE');
    const before = csvRows((await report(finance, { from: quarter.from, to: quarter.to })).body as string);
    const german = (rows: Record<string, string>[]) => rows.find((r) => r.Scheme === 'domestic' && r.Country === 'DE')!;
    expect(german(before)['Tax in lost disputes']).toBe('0.00');

    const charge = await db()('merchantCharges').where({ id: sale.chargeId }).first();
    const { lifecycle } = createServices(testDeps(db(), { config }));
    const dispute = (identifier: string, amount: number) => ({
      identifier,
      chargeIdentifier: charge.identifier,
      amount,
      reason: 'fraudulent',
    });
    // Half the charge disputed and lost: its tax share went back with it; another dispute, still open, counts nothing.
    await lifecycle.disputeOpened(charge.merchantAccountId, dispute('dp_report_lost', 5950));
    await lifecycle.disputeClosed(charge.merchantAccountId, { ...dispute('dp_report_lost', 5950), won: false });
    await lifecycle.disputeOpened(charge.merchantAccountId, dispute('dp_report_open', 1000));
    const share = taxShare(5950, charge.amount, charge.taxAmount);
    expect(share).toBe(950);
    expect(await db()('merchantDisputes').where({ identifier: 'dp_report_lost' }).first('taxAmount')).toEqual({
      taxAmount: share,
    });

    const after = german(csvRows((await report(finance, { from: quarter.from, to: quarter.to })).body as string));
    expect(cents(after['Tax in lost disputes']!)).toBe(share);
    // Informational: the tax due stays what the invoices and credit notes say.
    expect(after['Net tax due']).toBe(german(before)['Net tax due']);
    expect(after.Invoices).toBe(german(before).Invoices);
  });

  it("puts a credit note of an earlier quarter's sale on a row of its own that names that quarter", async () => {
    // A sale paid last quarter but invoiced only this quarter (as an earlier charge's invoice is), refunded this
    // quarter: the sale belongs to last quarter's return, the refund to this one's corrections of it.
    const payer = await signedIn(db());
    const chargeId = await writtenCharge({
      identifier: 'ch_last_quarter',
      ...{ amount: 11900, net: 11900, currency: 'eur', userId: payer.user.id, createdAt: quarter.previousDay },
      ...{ taxCountry: 'DE', taxRateBp: 1900, taxName: 'VAT', taxInclusive: true, taxAmount: 1900 },
    });
    const documentOf = (kind: string, number: string, sequence: number, amounts: object, suppliedAt: string) => ({
      kind,
      number,
      year: Number(number.replace(/^CN-/, '').slice(0, 4)),
      sequence,
      suppliedAt,
      taxScheme: 'domestic',
      merchantChargeId: chargeId,
      payerUserId: payer.user.id,
      seller: JSON.stringify({ name: 'School', country: 'DE' }),
      buyer: JSON.stringify({ name: 'Buyer', email: payer.user.email, country: 'DE' }),
      lines: JSON.stringify([]),
      currency: 'eur',
      ...{ taxCountry: 'DE', taxRateBp: 1900, taxName: 'VAT', taxInclusive: true },
      ...amounts,
    });
    const germanSales = (rows: Record<string, string>[]) =>
      rows.find((r) => r.Scheme === 'domestic' && r.Country === 'DE' && r['Corrects period'] === '')?.Invoices;
    const before = csvRows((await report(finance, { from: quarter.from, to: quarter.to })).body as string);
    const year = quarter.previousDay.slice(0, 4);
    const [invoice] = await db()('invoices')
      .insert(
        documentOf(
          'invoice',
          `${year}-980001`,
          980001,
          { subtotal: 11900, taxable: 10000, taxAmount: 1900, total: 11900 },
          quarter.previousDay,
        ),
      )
      .returning('id');
    const refundDay = new Date().toISOString();
    await db()('invoices').insert(
      documentOf(
        'credit-note',
        `CN-${quarter.from.slice(0, 4)}-980001`,
        980001,
        {
          invoiceId: invoice.id,
          refundedTo: 2380,
          subtotal: 2380,
          taxable: 2000,
          taxAmount: 380,
          total: 2380,
        },
        refundDay,
      ),
    );

    const rows = csvRows((await report(finance, { from: quarter.from, to: quarter.to })).body as string);
    const correcting = rows.filter((r) => r['Corrects period'] !== '');
    expect(correcting).toEqual([
      expect.objectContaining({
        Currency: 'eur',
        Scheme: 'domestic',
        Country: 'DE',
        'Rate (%)': '19.00',
        'Corrects period': quarter.previous,
        Invoices: '0',
        'Taxable amount': '0.00',
        'Credit notes': '1',
        'Refunded taxable amount': '20.00',
        'Refunded tax': '3.80',
        'Net taxable amount': '-20.00',
        'Net tax due': '-3.80',
      }),
    ]);
    // The sale, invoiced this quarter, is not on this quarter's German row.
    expect(germanSales(rows)).toBe(germanSales(before));
    // Last quarter's own report has the sale and no credit note.
    const earlier = csvRows(
      (await report(finance, { from: `${quarter.previousDay.slice(0, 7)}-01`, to: quarter.from })).body as string,
    );
    expect(earlier).toEqual([
      expect.objectContaining({ Scheme: 'domestic', Invoices: '1', Tax: '19.00', 'Credit notes': '0' }),
    ]);
  });

  it('neutralises a text cell a spreadsheet would run as a formula; amounts stay numbers', async () => {
    const payer = await signedIn(db());
    const tax = { taxCountry: 'GB', taxRateBp: 2000, taxName: '=HYPERLINK("http://x")', taxInclusive: false };
    const chargeId = await writtenCharge({
      ...{ identifier: 'ch_formula', amount: 1200, net: 1200, currency: 'gbp', userId: payer.user.id },
      ...{ taxAmount: 200, ...tax },
    });
    await db()('invoices').insert({
      ...{ kind: 'invoice', number: `${quarter.from.slice(0, 4)}-970001`, year: Number(quarter.from.slice(0, 4)) },
      ...{ sequence: 970001, merchantChargeId: chargeId, payerUserId: payer.user.id, currency: 'gbp' },
      ...{ suppliedAt: new Date(), taxScheme: 'registration' },
      seller: JSON.stringify({ name: 'School', country: 'DE' }),
      buyer: JSON.stringify({ name: 'Buyer', email: payer.user.email, country: 'GB' }),
      lines: JSON.stringify([]),
      ...{ subtotal: 1000, taxable: 1000, taxAmount: 200, total: 1200, ...tax },
    });
    const text = (await report(finance, { from: quarter.from, to: quarter.to })).body as string;
    const line = text.split('\r\n').find((l) => l.startsWith('gbp,'));
    expect(line).toBe(
      `gbp,other-registration,GB,,"'=HYPERLINK(""http://x"")",20.00,1,10.00,2.00,0,0.00,0.00,10.00,2.00,0.00,`,
    );
  });

  it('writes yen whole and a rate to a tenth of a basis point in three decimals', async () => {
    const payer = await signedIn(db());
    const tax = { taxCountry: 'CA', taxRegion: 'QC', taxRateBp: 1497.5, taxName: 'GST + QST', taxInclusive: true };
    const chargeId = await writtenCharge({
      ...{ identifier: 'ch_yen', amount: 11_498, net: 11_498, currency: 'jpy', userId: payer.user.id },
      ...{ taxAmount: 1_498, ...tax },
    });
    await db()('invoices').insert({
      ...{ kind: 'invoice', number: `${quarter.from.slice(0, 4)}-970002`, year: Number(quarter.from.slice(0, 4)) },
      ...{ sequence: 970002, merchantChargeId: chargeId, payerUserId: payer.user.id, currency: 'jpy' },
      ...{ suppliedAt: new Date(), taxScheme: 'registration' },
      seller: JSON.stringify({ name: 'School', country: 'DE' }),
      buyer: JSON.stringify({ name: 'Buyer', email: payer.user.email, country: 'CA', region: 'QC' }),
      lines: JSON.stringify([]),
      ...{ subtotal: 11_498, taxable: 10_000, taxAmount: 1_498, total: 11_498, ...tax },
    });
    const text = (await report(finance, { from: quarter.from, to: quarter.to })).body as string;
    expect(text.split('\r\n').find((l) => l.startsWith('jpy,'))).toBe(
      'jpy,other-registration,CA,QC,GST + QST,14.975,1,10000,1498,0,0,0,10000,1498,0,',
    );
  });

  it('is for finance and admins only, and refuses a period that is not one', async () => {
    const period = { from: quarter.from, to: quarter.to };
    expect((await report(undefined, period)).status).toBe(401);
    expect((await report(support, period)).status).toBe(403);
    expect((await report(await signedIn(db(), ['learner']), period)).status).toBe(403);
    expect((await report(await signedIn(db(), ['admin']), period)).status).toBe(200);
    const backwards = await report(finance, { from: quarter.to, to: quarter.from });
    expect(backwards.status).toBe(400);
    expect(JSON.parse(backwards.body as string).errors).toHaveProperty('from');
    const sameDay = await report(finance, { from: quarter.from, to: quarter.from });
    expect(JSON.parse(sameDay.body as string).errors).toHaveProperty('from');
    const tooLong = await report(finance, { from: '2025-01-01', to: '2026-06-01' });
    expect(JSON.parse(tooLong.body as string).errors).toHaveProperty('to');
    expect((await report(finance, { from: 'soon', to: quarter.to })).status).toBe(400);
  });

  it('sums tax collected, given back and net per month and country for the Finance page', async () => {
    const answer = await as(
      finance,
      request(app).get('/api/admin/finance/tax-summary').query({ from: quarter.from, to: quarter.to }),
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ from: quarter.from, to: quarter.to, currency: 'eur' });
    expect(answer.body.currencies).toEqual(['eur', 'gbp', 'jpy', 'usd']);
    expect(answer.body.months).toHaveLength(3);
    const { invoices, creditNotes } = await documentSums('eur');
    expect(answer.body.totals).toEqual({
      collected: invoices.tax,
      refunded: creditNotes.tax,
      net: invoices.tax - creditNotes.tax,
    });
    const countries = answer.body.countries.map((c: { country: string }) => c.country);
    expect(countries.sort()).toEqual(['DE', 'FR']);
    const months = answer.body.months as { collected: number; refunded: number; net: number }[];
    expect(months.reduce((n, m) => n + m.net, 0)).toBe(invoices.tax - creditNotes.tax);
    const dollars = await as(
      finance,
      request(app).get('/api/admin/finance/tax-summary').query({ from: quarter.from, to: quarter.to, currency: 'usd' }),
    );
    expect(dollars.body.countries).toEqual([
      { country: 'US', collected: taxOnTop(4900, 650), refunded: 0, net: taxOnTop(4900, 650) },
    ]);
    expect((await as(support, request(app).get('/api/admin/finance/tax-summary').query(quarter))).status).toBe(403);
  });
});
