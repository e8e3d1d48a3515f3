import { execFileSync } from 'node:child_process';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { ISSUE_EARLIER_INVOICES } from '../../api/src/invoices/earlier-charges';
import { REVERSE_CHARGE_NOTE } from '../../api/src/invoices/snapshots';
import { createServices, type Services } from '../../api/src/services';
import { taxInside, taxOnTop, taxRefunded } from '../../api/src/tax/amounts';
import { createCoupon, createProduct } from '../../seeds/factories';
import { testConfig, testDeps } from '../support/app';
import { as, signedIn, signedInByEmail, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { setSchoolTax, TEST_RATES } from '../support/school-tax';
import { csvRows, listExport } from '../support/csv';
import { pdfText } from '../support/pdf-text';

/**
 * Invoices and credit notes (docs/domain.md §18): issued with the charge and the refund, numbered without gaps per kind
 * and year, never rewritten, the payer's for ever; a correction is a new invoice that keeps the original.
 */
describe('invoices and credit notes', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const proxied = testConfig({ TRUST_PROXY: 'true', COUNTRY_HEADER: 'cf-ipcountry', REGION_HEADER: 'cf-region' });
  let services: Services;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let euro: { id: string; name: string };
  let dollar: { id: string; name: string };
  let support: SignedIn;
  const year = new Date().getUTCFullYear();

  beforeAll(async () => {
    const deps = testDeps(db(), { config: proxied });
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    await db()('schoolSettings').update({
      name: 'Invoice School',
      legalName: 'Invoice School GmbH',
      address: 'Hauptstraße 1\n10115 Berlin',
      supportEmail: 'billing@invoice-school.example',
    });
    await setSchoolTax(db(), {
      registrations: [{ country: 'US', region: 'WA' }],
      rates: TEST_RATES.filter((rate) => rate.country !== 'GB'),
    });
    euro = await createProduct(db(), { name: 'Invoiced Euro Course', unitAmount: 11900, currency: 'eur' });
    dollar = await createProduct(db(), { name: 'Invoiced Dollar Course', unitAmount: 4900, currency: 'usd' });
    support = await signedIn(db(), ['support']);
  });

  const store = (who: SignedIn, method: 'get' | 'put', path: string) =>
    as(who, request(app)[method](`/api/store${path}`));

  /** A signed-in buyer placed in `country` (and `region`) checks out, pays on the provider's page, and is fulfilled. */
  async function buy(
    buyer: SignedIn,
    body: Record<string, unknown>,
    place: { country: string; region?: string },
  ): Promise<{ checkoutId: string; purchaseId: string; chargeId: string }> {
    const headers = { 'cf-ipcountry': place.country, ...(place.region && { 'cf-region': place.region }) };
    const started = await as(buyer, request(app).post('/api/store/checkout').set(headers)).send(body);
    expect(started.status).toBe(201);
    const { pathname } = new URL(started.body.url);
    expect((await request(app).post(`${pathname}/pay`)).status).toBe(303);
    const done = await request(app).get(`/api/store/checkouts/${started.body.checkoutId}`);
    expect(done.body.status).toBe('fulfilled');
    const purchase = await db()('purchases').where({ id: done.body.purchaseId }).first('merchantChargeId');
    return {
      checkoutId: started.body.checkoutId,
      purchaseId: done.body.purchaseId,
      chargeId: purchase.merchantChargeId,
    };
  }

  const invoiceOfCharge = async (chargeId: string) =>
    db()('invoices').where({ merchantChargeId: chargeId, kind: 'invoice' }).orderBy('issuedAt').first();

  it('issues a German consumer an invoice: numbered, the seller and buyer, the coupon named, VAT inside the price', async () => {
    const buyer = await signedIn(db());
    const coupon = await createCoupon(db(), { code: `INV${Date.now()}`, percentageDiscount: 0.25 });
    const { chargeId } = await buy(buyer, { productId: euro.id, coupon: coupon.code }, { country: 'DE' });
    const row = await invoiceOfCharge(chargeId);
    expect(row.number).toMatch(new RegExp(`^${year}-\\d{6}$`));

    const answer = await store(buyer, 'get', `/invoices/${row.id}`);
    expect(answer.status).toBe(200);
    const total = 11900 - 2975;
    const tax = taxInside(total, 1900);
    expect(answer.body).toMatchObject({
      id: row.id,
      kind: 'invoice',
      number: row.number,
      seller: {
        name: 'Invoice School GmbH',
        tradingName: 'Invoice School',
        address: 'Hauptstraße 1\n10115 Berlin',
        taxId: 'DE123456789',
        country: 'DE',
        email: 'billing@invoice-school.example',
      },
      buyer: { name: buyer.user.name, email: buyer.user.email, country: 'DE', vatId: '' },
      lines: [
        { kind: 'item', description: euro.name, quantity: 1, unitAmount: 11900, amount: 11900 },
        { kind: 'discount', description: `Coupon ${coupon.code} (25 %)`, amount: -2975 },
      ],
      notes: [],
      tax: { name: 'VAT', country: 'DE', region: null, rate: 1900, amount: tax, inclusive: true, reverseCharge: false },
      subtotal: 11900,
      discount: 2975,
      taxable: total - tax,
      total,
      currency: 'eur',
      reverseCharge: false,
      corrects: null,
      correctedBy: null,
      creditNotes: [],
      refunded: 0,
      invoice: null,
    });

    // The old link (receipts already sent name the charge) leads to the same invoice.
    expect((await store(buyer, 'get', `/invoices/${chargeId}`)).body.id).toBe(row.id);
    const listed = await store(buyer, 'get', '/invoices');
    expect(listed.body.data).toEqual([
      expect.objectContaining({ id: row.id, kind: 'invoice', number: row.number, total, description: euro.name }),
    ]);

    // Someone else's invoice does not exist for them, by either id, nor its PDF.
    const stranger = await signedIn(db());
    for (const path of [`/invoices/${row.id}`, `/invoices/${chargeId}`, `/invoices/${row.id}.pdf`]) {
      expect((await store(stranger, 'get', path)).status).toBe(404);
    }
    expect((await store(stranger, 'get', '/invoices')).body.data).toEqual([]);
  });

  it('reverse-charges a French business with a VAT ID, says so, and prints it, the seller tax ID and any script', async () => {
    const buyer = await signedIn(db());
    const billing = { country: 'FR', company: 'Société Exemple SARL', address: '1 rue de la Paix\n75002 Paris' };
    const { chargeId } = await buy(
      buyer,
      { productId: euro.id, billing: { ...billing, vatId: 'FR12345678901' } },
      { country: 'FR' },
    );
    const row = await invoiceOfCharge(chargeId);
    const answer = (await store(buyer, 'get', `/invoices/${row.id}`)).body;
    expect(answer).toMatchObject({
      buyer: { ...billing, vatId: 'FR12345678901' },
      tax: { country: 'FR', rate: 0, amount: 0, reverseCharge: true },
      reverseCharge: true,
      notes: [REVERSE_CHARGE_NOTE],
      taxable: 11900,
      total: 11900,
    });

    // Corrected after paying: a Devanagari name and an Arabic company, under a new number; the original stays.
    const corrected = await store(buyer, 'put', `/invoices/${row.id}/buyer`).send({
      name: 'प्रिया शर्मा',
      company: 'شركة المثال',
      address: billing.address,
      vatId: 'FR 123 456 789 01',
    });
    expect(corrected.status).toBe(200);
    expect(corrected.body.notice).toMatch(/does not refund VAT/);
    const next = corrected.body.invoice;
    expect(next).toMatchObject({
      corrects: { id: row.id, number: row.number },
      buyer: { name: 'प्रिया शर्मा', company: 'شركة المثال', vatId: 'FR12345678901', country: 'FR' },
      total: 11900,
      tax: { reverseCharge: true },
    });
    expect(next.number).not.toBe(row.number);
    const original = (await store(buyer, 'get', `/invoices/${row.id}`)).body;
    expect(original).toMatchObject({ buyer: { company: billing.company }, correctedBy: { id: next.id } });
    expect((await store(buyer, 'get', `/invoices/${chargeId}`)).body.id).toBe(next.id);
    expect(await db()('billingProfiles').where({ userId: buyer.user.id }).first()).toMatchObject({
      company: 'شركة المثال',
      vatId: 'FR12345678901',
    });

    // Only the latest version is corrected.
    const stale = await store(buyer, 'put', `/invoices/${row.id}/buyer`).send({
      company: 'Again',
      vatId: 'FR12345678901',
    });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('invoice-not-latest');

    const pdf = await store(buyer, 'get', `/invoices/${next.id}.pdf`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain(`${next.number}.pdf`);
    const text = await pdfText(new Uint8Array(pdf.body as Buffer));
    expect(text.size).toEqual({ width: 595.28, height: 841.89 });
    expect(text.blankGlyphs).toEqual([]);
    // Right-to-left text is compared as a reader copies it (Poppler puts it in reading order), the rest as drawn.
    expect(popplerText(pdf.body as Buffer)).toContain('شركة المثال');
    const lines = text.lines.join('\n');
    for (const expected of [
      next.number,
      `Corrects invoice: ${row.number}`,
      'VAT ID DE123456789',
      'VAT ID FR12345678901',
      REVERSE_CHARGE_NOTE,
      'प्रिया शर्मा',
      '€119.00',
    ]) {
      expect(lines).toContain(expected);
    }
  });

  it('prints a rate to the tenth of a basis point as it is: Quebec’s 1497.5 reads 14.975 %, in the answer and the PDF', async () => {
    await db()('taxRegistrations').insert({ country: 'CA', region: 'QC' });
    await db()('taxRates').insert({ country: 'CA', region: 'QC', rateBp: 1497.5, name: 'GST/QST' });
    try {
      // Someone who never gave a name (an account made by their first purchase's email).
      const buyer = await signedInByEmail(db(), 'quebec-buyer@example.com');
      const { chargeId } = await buy(
        buyer,
        { productId: dollar.id, billing: { country: 'CA', region: 'QC' } },
        { country: 'CA', region: 'QC' },
      );
      const answer = (await store(buyer, 'get', `/invoices/${chargeId}`)).body;
      const tax = taxOnTop(4900, 1497.5);
      expect(answer.tax).toMatchObject({ country: 'CA', region: 'QC', rate: 1497.5, amount: tax, inclusive: false });
      expect(answer.total).toBe(4900 + tax);
      const lines = (await pdfText(await pdfOf(store(buyer, 'get', `/invoices/${answer.id}.pdf`)))).lines.join('\n');
      expect(lines).toContain('GST/QST 14.975 % (CA-QC, added)');
      expect(lines).not.toContain('14.98 %');
      // A buyer who gave no name is billed by their email address, never by a placeholder.
      expect(buyer.user.name).toBeNull();
      expect(answer.buyer.name).toBe('');
      expect(lines).toContain(buyer.user.email);
      expect(lines).not.toMatch(/Learner [0-9A-F]{4}/i);
    } finally {
      await db()('taxRates').where({ country: 'CA', region: 'QC' }).delete();
      await db()('taxRegistrations').where({ country: 'CA', region: 'QC' }).delete();
    }
  });

  it('keeps the VAT ID on a reverse-charged invoice: a correction without one, or with another country’s, is refused', async () => {
    const buyer = await signedIn(db());
    const { chargeId } = await buy(
      buyer,
      { productId: euro.id, billing: { country: 'FR', company: 'Entreprise SARL', vatId: 'FR12345678901' } },
      { country: 'FR' },
    );
    const row = await invoiceOfCharge(chargeId);
    expect(row.taxReverseCharge).toBe(true);
    const before = await db()('invoices').count({ n: '*' }).first();
    for (const body of [{ company: 'Entreprise SARL' }, { company: 'Entreprise SARL', vatId: '' }]) {
      const refused = await store(buyer, 'put', `/invoices/${row.id}/buyer`).send(body);
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({
        code: 'vat-id-invalid',
        errors: { vatId: "a reverse-charged invoice names the buyer's VAT ID" },
      });
    }
    const elsewhere = await store(buyer, 'put', `/invoices/${row.id}/buyer`).send({ vatId: 'DE123456789' });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body).toMatchObject({ code: 'vat-id-invalid', errors: { vatId: expect.any(String) } });
    expect(await db()('invoices').count({ n: '*' }).first()).toEqual(before);
    // With its VAT ID, the company's name is corrected.
    const corrected = await store(buyer, 'put', `/invoices/${row.id}/buyer`).send({
      company: 'Entreprise Nouvelle SARL',
      vatId: 'FR12345678901',
    });
    expect(corrected.status).toBe(200);
    expect(corrected.body.invoice).toMatchObject({
      buyer: { company: 'Entreprise Nouvelle SARL', vatId: 'FR12345678901' },
      reverseCharge: true,
    });
  });

  it('refuses a VAT ID that does not fit the billing country, writing nothing', async () => {
    const buyer = await signedIn(db());
    const { chargeId } = await buy(buyer, { productId: euro.id }, { country: 'DE' });
    const row = await invoiceOfCharge(chargeId);
    const before = await db()('invoices').count({ n: '*' }).first();
    const refused = await store(buyer, 'put', `/invoices/${row.id}/buyer`).send({ vatId: 'FR12345678901' });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'vat-id-invalid', errors: { vatId: expect.any(String) } });
    expect(await db()('invoices').count({ n: '*' }).first()).toEqual(before);
    expect(await db()('billingProfiles').where({ userId: buyer.user.id }).first()).toBeUndefined();
  });

  it('adds US sales tax on top in a registered state, none in another, and says why for a country not registered', async () => {
    const washington = await signedIn(db());
    const wa = await buy(
      washington,
      { productId: dollar.id, billing: { country: 'US', region: 'WA' } },
      { country: 'US' },
    );
    const waTax = taxOnTop(4900, 650);
    expect((await store(washington, 'get', `/invoices/${wa.chargeId}`)).body).toMatchObject({
      lines: [{ kind: 'item', amount: 4900 }],
      subtotal: 4900,
      discount: 0,
      taxable: 4900,
      tax: { name: 'Sales tax', country: 'US', region: 'WA', rate: 650, amount: waTax, inclusive: false },
      total: 4900 + waTax,
      notes: [],
    });

    const california = await signedIn(db());
    const ca = await buy(
      california,
      { productId: dollar.id, billing: { country: 'US', region: 'CA' } },
      { country: 'US' },
    );
    expect((await store(california, 'get', `/invoices/${ca.chargeId}`)).body).toMatchObject({
      tax: null,
      taxable: 4900,
      total: 4900,
      notes: ['Not subject to VAT in United States'],
    });

    const japan = await signedIn(db());
    const jp = await buy(japan, { productId: dollar.id }, { country: 'JP' });
    expect((await store(japan, 'get', `/invoices/${jp.chargeId}`)).body).toMatchObject({
      tax: null,
      total: 4900,
      buyer: { country: 'JP' },
      notes: ['Not subject to VAT in Japan'],
    });
  });

  it('issues a credit note for each refund, partial then full, with the tax reversed in proportion, numbered on', async () => {
    const buyer = await signedIn(db());
    const { purchaseId, chargeId } = await buy(buyer, { productId: euro.id }, { country: 'DE' });
    const invoice = await invoiceOfCharge(chargeId);
    const refund = (body: object) =>
      as(support, request(app).post(`/api/admin/purchases/${purchaseId}/refund`)).send({
        reasonCode: 'customer-request',
        ...body,
      });
    expect((await refund({ amount: 5000 })).status).toBe(200);
    expect((await refund({})).status).toBe(200);

    const notes = await db()('invoices').where({ merchantChargeId: chargeId, kind: 'credit-note' }).orderBy('sequence');
    const firstTax = taxRefunded(5000, 11900, 1900);
    expect(notes.map((n) => [n.refundedTo, n.total, n.taxAmount, n.taxable, n.invoiceId])).toEqual([
      [5000, 5000, firstTax, 5000 - firstTax, invoice.id],
      [11900, 6900, 1900 - firstTax, 6900 - (1900 - firstTax), invoice.id],
    ]);
    expect(notes[0].number).toMatch(new RegExp(`^CN-${year}-\\d{6}$`));
    expect(notes[1].sequence).toBe(notes[0].sequence + 1);
    const charge = await db()('merchantCharges').where({ id: chargeId }).first();
    expect(charge).toMatchObject({ refundAmount: 11900, refundedTax: 1900, taxAmount: 1900 });
    // The ledger took back the revenue only: the sale's lines less the refunds' net of tax.
    const ledger = await db()('splitLines').where({ merchantChargeId: chargeId, kind: 'refund' }).sum({ s: 'amount' });
    expect(Number(ledger[0]!.s)).toBe(-(11900 - 1900));

    const page = (await store(buyer, 'get', `/invoices/${invoice.id}`)).body;
    expect(page.refunded).toBe(11900);
    expect(page.creditNotes.map((n: { number: string }) => n.number)).toEqual(notes.map((n) => n.number));
    const credit = (await store(buyer, 'get', `/invoices/${notes[0].id}`)).body;
    expect(credit).toMatchObject({
      kind: 'credit-note',
      invoice: { id: invoice.id, number: invoice.number },
      tax: { rate: 1900, amount: firstTax },
      total: 5000,
      lines: [{ kind: 'refund', amount: 5000 }],
    });
  });

  it('numbers invoices without gaps under 20 purchases at once, and a settlement that rolls back takes no number', async () => {
    const buyers = await Promise.all(Array.from({ length: 20 }, () => signedIn(db())));
    const last = async () => (await db()('invoiceCounters').where({ kind: 'invoice', year }).first())?.last ?? 0;
    const start = await last();
    const charges = await Promise.all(buyers.map((b) => buy(b, { productId: dollar.id }, { country: 'JP' })));
    const sequences = (
      await db()('invoices')
        .whereIn(
          'merchantChargeId',
          charges.map((c) => c.chargeId),
        )
        .pluck('sequence')
    ).sort((a: number, b: number) => a - b);
    expect(sequences).toEqual(Array.from({ length: 20 }, (_, i) => start + 1 + i));

    // A settlement that fails after its invoice was numbered rolls the number back with everything else.
    await db().raw(`
      CREATE FUNCTION refuse_test_purchase() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'refused for the test'; END $$;
      CREATE TRIGGER refuse_test_purchase BEFORE INSERT ON purchases FOR EACH ROW
        WHEN (NEW.product_id = '${euro.id}') EXECUTE FUNCTION refuse_test_purchase();
    `);
    const unlucky = await signedIn(db());
    try {
      const started = await as(unlucky, request(app).post('/api/store/checkout').set({ 'cf-ipcountry': 'JP' })).send({
        productId: euro.id,
      });
      await request(app).post(`${new URL(started.body.url).pathname}/pay`);
      const failed = await request(app).get(`/api/store/checkouts/${started.body.checkoutId}`);
      expect(failed.status).toBe(500);
    } finally {
      await db().raw('DROP TRIGGER refuse_test_purchase ON purchases; DROP FUNCTION refuse_test_purchase();');
    }
    expect(await last()).toBe(start + 20);
    const next = await buy(await signedIn(db()), { productId: dollar.id }, { country: 'JP' });
    expect((await invoiceOfCharge(next.chargeId)).sequence).toBe(start + 21);
  });

  it('issues the invoices of charges recorded before invoices in a background job, in batches, oldest first', async () => {
    const buyer = await signedIn(db());
    const { chargeId } = await buy(buyer, { productId: dollar.id }, { country: 'JP' });
    const paid = await db()('merchantCharges').where({ id: chargeId }).first();
    // Charges as they were recorded before invoices: the middle one partly refunded, the last one given away (back
    // then a transfer handed the charge to its recipient).
    const older = (at: string, refundAmount: number, userId = buyer.user.id) => ({
      ...paid,
      id: undefined,
      identifier: `ch_before_${at}_${chargeId}`,
      userId,
      createdAt: new Date(at),
      refundAmount,
      metadata: JSON.stringify({}),
    });
    const friend = await signedIn(db());
    const [given, second, first] = await db()('merchantCharges')
      .insert([
        older('2026-03-01T00:00:00Z', 0, friend.user.id),
        older('2026-02-01T00:00:00Z', 1000),
        older('2026-01-01T00:00:00Z', 0),
      ])
      .returning('id');
    const [purchase] = await db()('purchases')
      .insert({
        userId: friend.user.id,
        productId: dollar.id,
        status: 'Valid',
        totalAmount: 4900,
        merchantChargeId: given!.id,
      })
      .returning('id');
    await db()('purchaseUserTransfers').insert({
      purchaseId: purchase.id,
      sourceUserId: buyer.user.id,
      targetUserId: friend.user.id,
      transferState: 'COMPLETED',
      expiresAt: new Date('2026-03-08T00:00:00Z'),
      completedAt: new Date('2026-03-02T00:00:00Z'),
    });
    const charges = [first!.id, second!.id, given!.id];
    await db()('merchantRefunds').insert({
      merchantAccountId: paid.merchantAccountId,
      merchantChargeId: second!.id,
      identifier: `re_before_${second!.id}`,
      status: 'succeeded',
      amount: 1000,
      reason: 'requested_by_customer',
      idempotencyKey: `before-${second!.id}`,
      createdAt: new Date('2026-02-10T09:00:00Z'),
    });

    // The boot queues one job however many replicas start; the CLI's run (batches of 500) issues the same way.
    const booted = await Promise.all([services.earlierInvoices.queue(), services.earlierInvoices.queue()]);
    expect(booted.sort()).toEqual([false, true]);
    await services.jobs.runDue(ISSUE_EARLIER_INVOICES);
    const issued = await db()('invoices')
      .whereIn('merchantChargeId', charges)
      .orderBy([{ column: 'kind' }, { column: 'sequence' }]);
    expect(issued.map((i) => [i.kind, i.merchantChargeId, i.payerUserId, i.total, i.refundedTo])).toEqual([
      ['credit-note', second!.id, buyer.user.id, 1000, 1000],
      ['invoice', first!.id, buyer.user.id, 4900, null],
      ['invoice', second!.id, buyer.user.id, 4900, null],
      ['invoice', given!.id, buyer.user.id, 4900, null],
    ]);
    expect(issued.slice(1).map((i) => i.sequence - issued[1].sequence)).toEqual([0, 1, 2]);
    // Issued today, supplied when the charge was made; no checkout of its own to name a discount or a place from.
    expect(issued[1].suppliedAt).toEqual(new Date('2026-01-01T00:00:00Z'));
    // The credit note is supplied when the refund was made.
    expect(issued[0].suppliedAt).toEqual(new Date('2026-02-10T09:00:00Z'));
    expect(issued[1].issuedAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(issued[1].lines).toEqual([
      { kind: 'item', description: dollar.name, quantity: 1, unitAmount: 4900, amount: 4900 },
    ]);
    // The page and the PDF say the date of supply, another day than the invoice's.
    const shown = (await store(buyer, 'get', `/invoices/${issued[1].id}`)).body;
    expect(shown.suppliedAt).toBe('2026-01-01T00:00:00.000Z');
    const pdf = (await pdfText(await pdfOf(store(buyer, 'get', `/invoices/${issued[1].id}.pdf`)))).lines.join('\n');
    expect(pdf).toContain('Date of supply: 1 January 2026');
    expect((await store(friend, 'get', `/invoices/${issued[3].id}`)).status).toBe(404);

    // Nothing waits any more: no job is queued, and a run issues nothing.
    expect(await services.earlierInvoices.queue()).toBe(false);
    expect(await services.earlierInvoices.issue({ batchSize: 1 })).toEqual({ invoices: 0, creditNotes: 0 });
    expect(await db()('invoices').whereIn('merchantChargeId', charges)).toHaveLength(4);
  });

  it('walks the earlier charges a batch at a time, each batch after the last, oldest first', async () => {
    const buyer = await signedIn(db());
    const { chargeId } = await buy(buyer, { productId: dollar.id }, { country: 'JP' });
    const paid = await db()('merchantCharges').where({ id: chargeId }).first();
    const days = ['2025-06-05', '2025-06-03', '2025-06-01', '2025-06-04', '2025-06-02'];
    const inserted = await db()('merchantCharges')
      .insert(
        days.map((day) => ({
          ...paid,
          id: undefined,
          identifier: `ch_batch_${day}_${chargeId}`,
          createdAt: new Date(`${day}T00:00:00Z`),
          refundAmount: 0,
          metadata: JSON.stringify({}),
        })),
      )
      .returning(['id', 'createdAt']);
    const done = await services.earlierInvoices.issue({ batchSize: 2 });
    expect(done).toEqual({ invoices: 5, creditNotes: 0 });
    const issued = await db()('invoices as i')
      .join('merchantCharges as ch', 'ch.id', 'i.merchantChargeId')
      .whereIn(
        'ch.id',
        inserted.map((c: { id: string }) => c.id),
      )
      .orderBy('i.sequence')
      .select('ch.createdAt', 'i.sequence');
    expect(issued.map((r) => r.createdAt.toISOString().slice(0, 10))).toEqual([...days].sort());
    expect(issued.map((r) => r.sequence - issued[0].sequence)).toEqual([0, 1, 2, 3, 4]);
  });

  it('shows finance the register in the console: a kind filter, a number search, the PDF and a formula-safe export', async () => {
    const buyer = await signedIn(db());
    await db()('users').where({ id: buyer.user.id }).update({ name: '=HYPERLINK("http://evil.example")' });
    const { purchaseId, chargeId } = await buy(buyer, { productId: euro.id }, { country: 'DE' });
    await as(support, request(app).post(`/api/admin/purchases/${purchaseId}/refund`)).send({
      reasonCode: 'customer-request',
      amount: 1900,
    });
    const invoice = await invoiceOfCharge(chargeId);
    const note = await db()('invoices').where({ merchantChargeId: chargeId, kind: 'credit-note' }).first();
    const finance = await signedIn(db(), ['finance']);
    const admin = (path: string, who: SignedIn = finance) => as(who, request(app).get(`/api/admin${path}`));
    const list = (filter: object) => admin(`/invoices?filter=${encodeURIComponent(JSON.stringify(filter))}`);

    const notes = await list({ kind: 'credit-note', merchantChargeId: chargeId });
    expect(notes.status).toBe(200);
    expect(notes.body.map((r: { number: string }) => r.number)).toEqual([note.number]);
    // The number search finds it (and a credit note of the same sequence number, CN-…, whose number holds it).
    const found = (await list({ q: invoice.number })).body as { id: string; number: string }[];
    expect(found.map((r) => r.id)).toContain(invoice.id);
    expect(found.every((r) => r.number.endsWith(invoice.number))).toBe(true);
    const shown = await admin(`/invoices/${invoice.id}`);
    expect(shown.body).toMatchObject({ number: invoice.number, buyer: { email: buyer.user.email }, total: 11900 });
    expect((await admin(`/invoices`, support)).status).toBe(403);

    const pdf = await admin(`/invoices/${note.id}.pdf`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(pdf.status).toBe(200);
    const lines = (await pdfText(new Uint8Array(pdf.body as Buffer))).lines.join('\n');
    expect(lines).toContain(`Credit note ${note.number}`);
    expect(lines).toContain(`Credits invoice: ${invoice.number}`);
    expect((await admin(`/invoices/${note.id}.pdf`, support)).status).toBe(403);

    const exported = await listExport(app, finance, 'invoices', { filter: { merchantChargeId: chargeId } });
    expect(exported.status).toBe(200);
    const rows = csvRows(exported.body as string);
    const firstTax = taxRefunded(1900, 11900, 1900);
    expect(rows).toEqual([
      expect.objectContaining({
        Number: note.number,
        Kind: 'Credit note',
        'Credits invoice': invoice.number,
        'Buyer name': `'=HYPERLINK("http://evil.example")`,
        'Buyer country': 'DE',
        'Taxable amount': ((1900 - firstTax) / 100).toFixed(2),
        Tax: (firstTax / 100).toFixed(2),
        Total: '19.00',
        Currency: 'EUR',
      }),
      expect.objectContaining({
        Number: invoice.number,
        Kind: 'Invoice',
        'Tax rate in percent': '19',
        Total: '119.00',
      }),
    ]);
  });

  it('names the team tier and the regional price, and the receipt’s link leads to the invoice page and its answer', async () => {
    const lead = await signedIn(db());
    const team = await buy(lead, { productId: dollar.id, quantity: 10, team: true }, { country: 'JP' });
    const teamInvoice = (await store(lead, 'get', `/invoices/${team.chargeId}`)).body;
    expect(teamInvoice.lines).toEqual([
      { kind: 'item', description: `${dollar.name} (10 seats)`, quantity: 10, unitAmount: 4900, amount: 49_000 },
      expect.objectContaining({ kind: 'discount', description: 'Team discount (10 seats, 25 %)', amount: -12_250 }),
    ]);
    expect(teamInvoice).toMatchObject({ subtotal: 49_000, discount: 12_250, total: 36_750, tax: null });

    const regional = await signedIn(db());
    const ppp = await buy(regional, { productId: dollar.id, ppp: true }, { country: 'IN' });
    const pppInvoice = (await store(regional, 'get', `/invoices/${ppp.chargeId}`)).body;
    expect(pppInvoice.lines[1]).toMatchObject({
      kind: 'discount',
      description: expect.stringMatching(/^Regional price \(India, \d+ %\)$/),
    });
    expect(pppInvoice.subtotal - pppInvoice.discount).toBe(pppInvoice.total);

    // The receipt's invoice link: the storefront's page, whose answer is this invoice.
    const receipt = await db()('outboxEmails').where({ toAddress: regional.user.email, kind: 'receipt' }).first();
    const link = new URL(/https?:\/\/\S+\/invoices\/[0-9a-f-]{36}/.exec(receipt.textBody)![0]);
    expect(link.pathname).toBe(`/invoices/${pppInvoice.id}`);
    const page = await as(regional, request(app).get(link.pathname));
    expect(page.status).toBe(200);
    expect(page.type).toBe('text/html');
    const answer = await store(regional, 'get', link.pathname);
    expect(answer.status).toBe(200);
    expect(answer.body.number).toBe(pppInvoice.number);
  });

  it('keeps the invoice its payer’s after the purchase is given away: the recipient has none', async () => {
    const owner = await signedIn(db());
    const { purchaseId, chargeId } = await buy(owner, { productId: dollar.id }, { country: 'JP' });
    const invoice = await invoiceOfCharge(chargeId);
    const friend = await signedIn(db());
    const call = (who: SignedIn, path: string, body?: object) =>
      as(who, request(app).post(`/api/store${path}`)).send(body);
    const transferId = (await store(owner, 'get', `/purchases/${purchaseId}/transfer`)).body.data.id;
    expect((await call(owner, `/purchases/${purchaseId}/transfer`, { email: friend.user.email })).status).toBe(200);
    expect((await call(friend, `/transfers/${transferId}/verify`)).status).toBe(200);
    expect((await call(friend, `/transfers/${transferId}/accept`)).status).toBe(200);

    expect((await store(owner, 'get', `/invoices/${chargeId}`)).body).toMatchObject({
      id: invoice.id,
      buyer: { email: owner.user.email },
    });
    expect((await store(owner, 'get', '/invoices')).body.data.map((i: { id: string }) => i.id)).toEqual([invoice.id]);
    expect((await store(friend, 'get', `/invoices/${invoice.id}`)).status).toBe(404);
    expect((await store(friend, 'get', `/invoices/${chargeId}`)).status).toBe(404);
    expect((await store(friend, 'get', '/invoices')).body.data).toEqual([]);
    expect(await invoiceOfCharge(chargeId)).toEqual(invoice);
  });

  it('invoices a payment that cannot be fulfilled, then credits it in full when it is refunded', async () => {
    const workshop = await createProduct(db(), {
      name: 'One-seat invoiced workshop',
      productType: 'live',
      quantityAvailable: 1,
      unitAmount: 11_900,
      currency: 'eur',
    });
    const buyers = [await signedIn(db()), await signedIn(db())];
    const started = await Promise.all(
      buyers.map((b) =>
        as(b, request(app).post('/api/store/checkout').set({ 'cf-ipcountry': 'DE' })).send({ productId: workshop.id }),
      ),
    );
    for (const s of started) expect((await request(app).post(`${new URL(s.body.url).pathname}/pay`)).status).toBe(303);
    const outcomes = await Promise.all(
      started.map((s) => request(app).get(`/api/store/checkouts/${s.body.checkoutId}`)),
    );
    expect(outcomes.map((o) => o.body.status).sort()).toEqual(['fulfilled', 'refunded']);
    const refunded = outcomes.find((o) => o.body.status === 'refunded')!;
    const { merchantChargeId } = await db()('purchases').where({ id: refunded.body.purchaseId }).first();
    const documents = await db()('invoices').where({ merchantChargeId }).orderBy('issuedAt');
    expect(documents.map((d) => [d.kind, d.total, d.taxAmount])).toEqual([
      ['invoice', 11_900, 1900],
      ['credit-note', 11_900, 1900],
    ]);
    expect(documents[1].invoiceId).toBe(documents[0].id);
  });

  it('corrects a version once when two corrections of it arrive at once: one corrected invoice, the other 409', async () => {
    const buyer = await signedIn(db());
    const { chargeId } = await buy(buyer, { productId: dollar.id }, { country: 'JP' });
    const original = await invoiceOfCharge(chargeId);
    const answers = await Promise.all(
      ['First Company KK', 'Second Company KK'].map((company) =>
        store(buyer, 'put', `/invoices/${original.id}/buyer`).send({ company }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.body.code).toBe('invoice-not-latest');
    const versions = await db()('invoices').where({ merchantChargeId: chargeId, kind: 'invoice' });
    expect(versions).toHaveLength(2);
    expect(versions.filter((v) => v.correctsId === original.id)).toHaveLength(1);
  });

  it('refuses to rewrite or delete an issued invoice', async () => {
    const buyer = await signedIn(db());
    const { chargeId } = await buy(buyer, { productId: dollar.id }, { country: 'JP' });
    const row = await invoiceOfCharge(chargeId);
    await expect(db()('invoices').where({ id: row.id }).update({ total: 1 })).rejects.toThrow(/never rewritten/);
    await expect(db()('invoices').where({ id: row.id }).delete()).rejects.toThrow(/never rewritten/);
    // Numbered as its settlement committed: that numbering was the one change it could take.
    await expect(
      db()('invoices').where({ id: row.id }).update({ number: '2026-999999', sequence: 999_999 }),
    ).rejects.toThrow(/never rewritten/);
    expect(await invoiceOfCharge(chargeId)).toEqual(row);
  });

  it('numbers an invoice written without its number as its transaction commits, the next number of its year', async () => {
    const buyer = await signedIn(db());
    const { chargeId } = await buy(buyer, { productId: dollar.id }, { country: 'JP' });
    const issued = await invoiceOfCharge(chargeId);
    const { id: _id, number: _number, year: _year, sequence: _sequence, issuedAt: _at, ...document } = issued;
    const copy = await db().transaction(async (trx) => {
      const [row] = await trx('invoices')
        .insert({ ...document, ...jsonOf(document, ['seller', 'buyer', 'lines']) })
        .returning(['id', 'number']);
      // Not numbered before the commit: the counter row is not taken by the insert.
      expect(row.number).toBeNull();
      expect(await trx('invoiceCounters').where({ kind: 'invoice' }).first('last')).toEqual({ last: issued.sequence });
      // Nor can the row be changed meanwhile, other than by its numbering.
      await expect(
        trx.transaction((inner) => inner('invoices').where({ id: row.id }).update({ total: 1 })),
      ).rejects.toThrow(/never rewritten/);
      return row.id as string;
    });
    const numbered = await db()('invoices').where({ id: copy }).first('number', 'year', 'sequence');
    expect(numbered).toEqual({
      number: `${issued.year}-${String(issued.sequence + 1).padStart(6, '0')}`,
      year: issued.year,
      sequence: issued.sequence + 1,
    });
  });
});

/** Columns read back as objects, written again as JSON text. */
const jsonOf = (row: Record<string, unknown>, columns: string[]) =>
  Object.fromEntries(columns.map((c) => [c, JSON.stringify(row[c])]));

/** A PDF answer's bytes. */
async function pdfOf(call: request.Test): Promise<Uint8Array> {
  const answer = await call.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });
  expect(answer.status).toBe(200);
  return new Uint8Array(answer.body as Buffer);
}

/** The text a reader copies out of a PDF, as Poppler's pdftotext reads it, without its direction marks (NFC). */
function popplerText(pdf: Buffer): string {
  const text = execFileSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], { input: pdf }).toString('utf8');
  return text.replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').normalize('NFC');
}
