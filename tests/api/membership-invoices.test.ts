import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { REVERSE_CHARGE_NOTE } from '../../api/src/invoices/snapshots';
import { createProduct } from '../../seeds/factories';
import { testApp, testConfig } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { setSchoolTax } from '../support/school-tax';
import { pdfText } from '../support/pdf-text';
import { expectTaxInvariants } from '../support/tax-invariants';

/**
 * A membership period's invoice names its buyer as a purchase's does (docs/domain.md §18, §22): the billing details
 * given when subscribing, on the first period's invoice and on every renewal's, reverse-charged to an EU business of
 * another country than the school's. The school is established in France, registered for the EU's One-Stop Shop.
 */
describe("a membership period's invoice and its buyer", () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const config = testConfig({ TRUST_PROXY: 'true', COUNTRY_HEADER: 'cf-ipcountry' });
  let app: ReturnType<typeof testApp>;

  beforeAll(async () => {
    app = testApp(db(), { config });
    await setSchoolTax(db(), {
      country: 'FR',
      taxId: 'FR12345678901',
      rates: [
        { country: 'FR', region: null, rateBp: 2000, name: 'VAT' },
        { country: 'DE', region: null, rateBp: 1900, name: 'VAT' },
      ],
    });
  });

  const store = (who: SignedIn, method: 'get' | 'post' | 'put', path: string) =>
    as(who, request(app)[method](`/api/store${path}`).set({ 'cf-ipcountry': 'DE' }));

  /** Subscribes at the provider's page; the learner's subscription's id. */
  async function subscribe(who: SignedIn, body: object): Promise<string> {
    const started = await store(who, 'post', '/subscriptions').send(body);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const { pathname } = new URL(started.body.data.url);
    expect((await request(app).post(`${pathname}/pay`)).status).toBe(303);
    const [sub] = (await store(who, 'get', '/subscriptions')).body.data as { id: string }[];
    return sub!.id;
  }

  /** Each paid period's invoice, oldest first. */
  const invoicesOf = (subscriptionId: string) =>
    db()('subscriptionPeriods as sp')
      .join('invoices as i', 'i.id', 'sp.invoiceId')
      .where('sp.subscriptionId', subscriptionId)
      .orderBy('sp.periodStart')
      .select('i.*');

  async function pdfLines(who: SignedIn, invoiceId: string): Promise<string> {
    const answer = await store(who, 'get', `/invoices/${invoiceId}.pdf`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(answer.status).toBe(200);
    return (await pdfText(new Uint8Array(answer.body as Buffer))).lines.join('\n');
  }

  it('names a German business subscriber with its VAT ID on the first and each renewal invoice, reverse-charged', async () => {
    const pass = await createProduct(db(), {
      name: 'Euro pass',
      productType: 'membership',
      billingInterval: 'month',
      unitAmount: 1190,
      currency: 'eur',
    });
    const business = await signedIn(db());
    const billing = {
      company: 'Beispiel GmbH',
      address: 'Hauptstraße 1\nBerlin',
      country: 'DE',
      postalCode: '10115',
      vatId: 'DE123456789',
    };
    const id = await subscribe(business, { productId: pass.id, billing });
    // What they remember for a next checkout changes later: an invoice names the buyer the subscription was billed to.
    expect((await store(business, 'put', '/billing').send({ company: 'Other AG', country: 'AT' })).status).toBe(200);
    const renewed = await request(app).post(`/test-provider/subscriptions/${id}/renew`).send({ outcome: 'paid' });
    expect(renewed.status, JSON.stringify(renewed.body)).toBeLessThan(300);

    const invoices = await invoicesOf(id);
    expect(invoices).toHaveLength(2);
    for (const invoice of invoices) {
      expect(invoice.buyer).toMatchObject({
        company: 'Beispiel GmbH',
        address: 'Hauptstraße 1\nBerlin\n10115',
        country: 'DE',
        vatId: 'DE123456789',
      });
      expect(invoice).toMatchObject({
        taxScheme: 'reverse-charge',
        taxReverseCharge: true,
        taxCountry: 'DE',
        taxAmount: 0,
        total: 1190,
      });
      expect(invoice.lines).toContainEqual({ kind: 'note', description: REVERSE_CHARGE_NOTE });
      const text = await pdfLines(business, invoice.id);
      for (const expected of ['Beispiel GmbH', 'Hauptstraße 1', '10115', 'Germany', 'VAT ID DE123456789'])
        expect(text).toContain(expected);
      expect(text).toContain('Reverse charge');
      expect(text).not.toContain('Other AG');
    }
    await expectTaxInvariants(db());
  });

  it('names a consumer at the place their tax followed, with no VAT ID and the tax of their country', async () => {
    const pass = await createProduct(db(), {
      name: 'Consumer pass',
      productType: 'membership',
      billingInterval: 'month',
      unitAmount: 1190,
      currency: 'eur',
    });
    const learner = await signedIn(db());
    const id = await subscribe(learner, { productId: pass.id });
    const [invoice] = await invoicesOf(id);
    expect(invoice.buyer).toMatchObject({ company: '', country: 'DE', vatId: '' });
    expect(invoice).toMatchObject({ taxScheme: 'eu-oss', taxReverseCharge: false, taxCountry: 'DE', taxAmount: 190 });
    await expectTaxInvariants(db());
  });
});
