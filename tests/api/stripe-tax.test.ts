import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taxInside, taxOnTop, taxRefunded } from '../../api/src/tax/amounts';
import { createCoupon, createProduct, createPurchase, makeUpgradable } from '../../seeds/factories';
import { as, signedIn, signedInByEmail } from '../support/auth';
import { pdfText } from '../support/pdf-text';
import { testApp, testConfig } from '../support/app';
import { sessionOfCheckout } from '../support/checkout';
import { useTestDatabase } from '../support/db';
import { setSchoolTax, TEST_RATES } from '../support/school-tax';
import { stripeClient } from '../../api/src/payments/stripe-provider';
import { COMMERCE_LIMITS } from '../../api/src/commerce/checkout/limits';
import { deliverSigned, standInEnv, startStripeStandIn, type StandIn } from '../support/stripe-stand-in';

/**
 * Stripe Tax through the real `stripe` SDK against the local stand-in: the quote's tax is Stripe's calculation, the
 * Checkout Session computes the same (automatic_tax) from a customer carrying the buyer's place and VAT ID, and the
 * charge, its invoice and a credit note carry what Stripe charged. The stand-in's rate table differs from the
 * product's where a US city adds its own rate: Seattle's 10.35 % against Washington's 6.5 % in the built-in table.
 */
describe('Stripe Tax', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let stripe: StandIn;
  let app: ReturnType<typeof testApp>;
  let euro: { id: string };
  let dollar: { id: string };
  /** The built-in table's rate for Washington state (as in TEST_RATES), which Stripe's combined rate differs from. */
  const BUILT_IN_WA = 650;

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    app = testApp(db(), { config: testConfig(standInEnv(stripe)) });
    // The school as in its Stripe dashboard: established in Germany, the EU's OSS, Washington state; euro prices
    // include tax, dollar prices do not.
    await setSchoolTax(db(), {
      registrations: [{ country: 'US', region: 'WA' }],
      rates: TEST_RATES.filter((rate) => ['DE', 'FR'].includes(rate.country) || rate.region === 'WA'),
    });
    euro = await createProduct(db(), { name: 'Stripe Tax Euro Course', unitAmount: 11900, currency: 'eur' });
    dollar = await createProduct(db(), { name: 'Stripe Tax Dollar Course', unitAmount: 4900, currency: 'usd' });
  });
  afterAll(() => stripe?.close());

  const quote = (productId: string, query: Record<string, string>) =>
    request(app).get(`/api/store/products/${productId}/quote`).query(query);
  const calculations = () => stripe.calls.get('POST /v1/tax/calculations') ?? 0;

  /** Starts a checkout, pays on Stripe's page and delivers the completed event: the session, the charge, its invoice. */
  async function bought(body: object) {
    const started = await request(app).post('/api/store/checkout').send(body);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const checkoutId = started.body.checkoutId as string;
    const sessionId = await sessionOfCheckout(db(), checkoutId);
    const session = stripe.objects.get(sessionId)!;
    expect((await deliverSigned(app, stripe.pay(sessionId))).status).toBe(200);
    const checkout = await db()('checkouts').where({ id: checkoutId }).first();
    expect(checkout.status).toBe('fulfilled');
    const charge = await db()('merchantCharges as c')
      .join('purchases as p', 'p.merchantChargeId', 'c.id')
      .where('p.id', checkout.purchaseId)
      .first('c.*');
    const invoice = await db()('invoices').where({ merchantChargeId: charge.id, kind: 'invoice' }).first();
    return { checkout, session, charge, invoice };
  }

  it("asks Stripe for a German consumer's tax, and the session, the charge and the invoice carry Stripe's VAT inside the price", async () => {
    const before = calculations();
    const answer = await quote(euro.id, { billingCountry: 'DE' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(calculations()).toBe(before + 1);
    expect(answer.body.quote).toMatchObject({
      finalPrice: 11900,
      total: 11900,
      tax: {
        country: 'DE',
        region: null,
        rate: 1900,
        amount: 1900,
        inclusive: true,
        reverseCharge: false,
        name: 'VAT',
      },
    });

    const { session, charge, invoice } = await bought({
      productId: euro.id,
      email: 'stripe.de@example.com',
      billing: { country: 'DE' },
    });
    expect(session).toMatchObject({
      automatic_tax: { enabled: true, status: 'complete' },
      amount_total: 11900,
      total_details: { amount_tax: 1900 },
    });
    const customer = stripe.objects.get(session.customer as string)!;
    expect(customer).toMatchObject({ email: 'stripe.de@example.com', address: { country: 'DE' } });
    const price = stripe.objects.get((session.line_items_spec as { price: string }[])[0]!.price)!;
    expect(price.tax_behavior).toBe('inclusive');
    expect(charge).toMatchObject({
      amount: 11900,
      taxCountry: 'DE',
      taxRegion: null,
      taxName: 'VAT',
      taxInclusive: true,
      taxReverseCharge: false,
      taxAmount: 1900,
    });
    expect(Number(charge.taxRateBp)).toBe(1900);
    expect(invoice).toMatchObject({ total: 11900, taxable: 10000, taxAmount: 1900, taxCountry: 'DE' });
  });

  it("records Stripe's combined rate for a Seattle buyer, tax on top: the quote's total is what the session charges", async () => {
    await createCoupon(db(), { code: 'STRIPETAX20', percentageDiscount: 0.2, restrictedToProductId: dollar.id });
    const discounted = 4900 - 980;
    const stripeTax = taxOnTop(discounted, 1035);
    expect(stripeTax).not.toBe(taxOnTop(discounted, BUILT_IN_WA));

    const answer = await quote(dollar.id, {
      billingCountry: 'US',
      region: 'WA',
      postalCode: '98101',
      coupon: 'STRIPETAX20',
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.quote).toMatchObject({
      finalPrice: discounted,
      total: discounted + stripeTax,
      tax: { country: 'US', region: 'WA', rate: 1035, amount: stripeTax, inclusive: false, name: 'Sales tax' },
    });

    const { session, charge, invoice } = await bought({
      productId: dollar.id,
      coupon: 'STRIPETAX20',
      email: 'stripe.wa@example.com',
      billing: { country: 'US', region: 'WA', postalCode: '98101' },
    });
    expect(session.amount_total).toBe(answer.body.quote.total);
    expect(stripe.objects.get(session.customer as string)).toMatchObject({
      address: { country: 'US', state: 'WA', postal_code: '98101' },
    });
    const price = stripe.objects.get((session.line_items_spec as { price: string }[])[0]!.price)!;
    expect(price.tax_behavior).toBe('exclusive');
    expect(charge).toMatchObject({
      amount: discounted + stripeTax,
      taxCountry: 'US',
      taxRegion: 'WA',
      taxAmount: stripeTax,
      taxInclusive: false,
      taxName: 'Sales tax',
    });
    expect(Number(charge.taxRateBp)).toBe(1035);
    expect(invoice).toMatchObject({ taxable: discounted, taxAmount: stripeTax, total: discounted + stripeTax });
    expect(Number(invoice.taxRateBp)).toBe(1035);

    // Refunded in part from Stripe's dashboard: the charge.refunded event gives a credit note with the tax reversed.
    const partial = 2000;
    const refunded = stripe.refundFromDashboard(charge.identifier, partial);
    expect((await deliverSigned(app, refunded)).status).toBe(200);
    const taxBack = taxRefunded(partial, charge.amount, stripeTax);
    expect(await db()('merchantCharges').where({ id: charge.id }).first('refundAmount', 'refundedTax')).toEqual({
      refundAmount: partial,
      refundedTax: taxBack,
    });
    const note = await db()('invoices').where({ merchantChargeId: charge.id, kind: 'credit-note' }).first();
    expect(note).toMatchObject({
      invoiceId: invoice.id,
      refundedTo: partial,
      total: partial,
      taxAmount: taxBack,
      taxable: partial - taxBack,
    });
    expect(note.number).toMatch(/^CN-\d{4}-\d{6}$/);

    // The payer's invoice page and PDF say Stripe's rate and place; the credit note is listed on it.
    const payer = await signedInByEmail(db(), 'stripe.wa@example.com');
    const shown = await as(payer, request(app).get(`/api/store/invoices/${invoice.id}`));
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({
      number: invoice.number,
      tax: { name: 'Sales tax', country: 'US', region: 'WA', rate: 1035, amount: stripeTax, inclusive: false },
      taxable: discounted,
      total: discounted + stripeTax,
      creditNotes: [{ id: note.id, number: note.number }],
    });
    const pdf = await as(payer, request(app).get(`/api/store/invoices/${invoice.id}.pdf`))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(pdf.status).toBe(200);
    const text = (await pdfText(new Uint8Array(pdf.body as Buffer))).lines.join('\n');
    expect(text).toContain(invoice.number);
    expect(text).toContain('Sales tax 10.35 % (US-WA, added)');
  });

  it('taxes a team of seats at Stripe on the price after the team discount, one line of N seats', async () => {
    const seats = 6;
    const afterTier = 4900 * seats - (4900 * seats * 1500) / 10_000;
    const tax = taxOnTop(afterTier, 1035);
    const query = { billingCountry: 'US', region: 'WA', postalCode: '98101', quantity: String(seats), team: 'true' };
    const answer = await quote(dollar.id, query);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.quote).toMatchObject({ finalPrice: afterTier, total: afterTier + tax, tax: { rate: 1035 } });
    const { session, charge, invoice } = await bought({
      productId: dollar.id,
      quantity: seats,
      team: true,
      email: 'stripe.team@example.com',
      billing: { country: 'US', region: 'WA', postalCode: '98101', company: 'Team Buyer Inc.' },
    });
    expect(session.line_items_spec).toEqual([expect.objectContaining({ quantity: String(seats) })]);
    expect(session).toMatchObject({ amount_subtotal: 4900 * seats, amount_total: afterTier + tax });
    expect(charge).toMatchObject({ amount: afterTier + tax, taxAmount: tax, taxRegion: 'WA' });
    expect(invoice).toMatchObject({ taxable: afterTier, taxAmount: tax });
  });

  it('taxes an upgrade on the price less the credit, the credit a one-off Stripe coupon', async () => {
    const buyer = await signedIn(db());
    const basic = await createProduct(db(), { name: 'Stripe Tax Basic', unitAmount: 2000, currency: 'usd' });
    const full = await createProduct(db(), { name: 'Stripe Tax Full', unitAmount: 4900, currency: 'usd' });
    await makeUpgradable(db(), basic, full);
    await createPurchase(db(), { user: buyer.user, product: basic, totalAmount: 2000 });
    const tax = taxOnTop(2900, 1035);
    const answer = await as(buyer, request(app).get(`/api/store/products/${full.id}/quote`)).query({
      billingCountry: 'US',
      region: 'WA',
      postalCode: '98101',
    });
    expect(answer.body.quote).toMatchObject({ credit: 2000, finalPrice: 2900, total: 2900 + tax });
    const started = await as(buyer, request(app).post('/api/store/checkout')).send({
      productId: full.id,
      billing: { country: 'US', region: 'WA', postalCode: '98101' },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const sessionId = await sessionOfCheckout(db(), started.body.checkoutId);
    const session = stripe.objects.get(sessionId)!;
    const { coupon } = (session.discounts as { coupon: string }[])[0]!;
    expect(stripe.objects.get(coupon)).toMatchObject({ amount_off: 2000 });
    expect(session).toMatchObject({
      amount_total: 2900 + tax,
      total_details: { amount_discount: 2000, amount_tax: tax },
    });
    expect((await deliverSigned(app, stripe.pay(sessionId))).status).toBe(200);
    const charge = await db()('merchantCharges').where({ userId: buyer.user.id }).orderBy('createdAt', 'desc').first();
    expect(charge).toMatchObject({ amount: 2900 + tax, taxAmount: tax, taxRegion: 'WA' });
  });

  it('reverse-charges a French business with a VAT ID: Stripe sees the tax ID on the customer and charges no tax', async () => {
    const billing = { country: 'FR', vatId: 'FR40303265045', company: 'Société Exemple SARL' };
    const answer = await quote(euro.id, { billingCountry: 'FR', vatId: billing.vatId });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.quote).toMatchObject({
      total: 11900,
      tax: { country: 'FR', rate: 0, amount: 0, reverseCharge: true, name: 'VAT' },
    });

    const { session, charge, invoice } = await bought({
      productId: euro.id,
      email: 'stripe.fr@example.com',
      billing,
    });
    const customer = stripe.objects.get(session.customer as string)!;
    expect(customer).toMatchObject({
      name: billing.company,
      address: { country: 'FR' },
      tax_ids: { data: [{ type: 'eu_vat', value: billing.vatId }] },
    });
    expect(session).toMatchObject({ amount_total: 11900, total_details: { amount_tax: 0 } });
    expect(charge).toMatchObject({ amount: 11900, taxCountry: 'FR', taxReverseCharge: true, taxAmount: 0 });
    expect(invoice).toMatchObject({ taxReverseCharge: true, taxAmount: 0, taxable: 11900, total: 11900 });
  });

  it('charges no tax where Stripe does not collect (a US state the school is not registered in, a country)', async () => {
    for (const [query, billing] of [
      [
        { billingCountry: 'US', region: 'OR', postalCode: '97701' },
        { country: 'US', region: 'OR', postalCode: '97701' },
      ],
      [
        { billingCountry: 'US', region: 'CA', postalCode: '94105' },
        { country: 'US', region: 'CA', postalCode: '94105' },
      ],
      [{ billingCountry: 'JP' }, { country: 'JP' }],
    ] as const) {
      const answer = await quote(dollar.id, query);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.quote).toMatchObject({ finalPrice: 4900, total: 4900, tax: null });
      const { session, charge } = await bought({
        productId: dollar.id,
        email: `stripe.${billing.country.toLowerCase()}.${'region' in billing ? billing.region : 'x'}@example.com`,
        billing,
      });
      expect(session).toMatchObject({ automatic_tax: { enabled: true }, amount_total: 4900 });
      expect(charge).toMatchObject({ amount: 4900, taxCountry: null, taxAmount: 0, taxReverseCharge: false });
    }
  });

  it("records the tax Stripe's session charged, even where it differs from the quote's, and never charges a total not quoted", async () => {
    // Stripe starts collecting in Australia between the quote's calculation and the session (a registration added in
    // its dashboard meanwhile): with tax inside the price the buyer pays the quoted total, and the charge says what
    // Stripe collected in it.
    expect((await quote(euro.id, { billingCountry: 'AU' })).body.quote).toMatchObject({ total: 11900, tax: null });
    stripe.beforeNext('POST /v1/checkout/sessions', async () => stripe.registerTax({ country: 'AU' }));
    const { checkout, session, charge } = await bought({
      productId: euro.id,
      email: 'stripe.au@example.com',
      billing: { country: 'AU' },
    });
    expect(checkout).toMatchObject({ amountTotal: 11900, taxCountry: null, taxAmount: 0 });
    const gst = taxInside(11900, 1000);
    expect(session.total_details).toMatchObject({ amount_tax: gst });
    expect(charge).toMatchObject({ amount: 11900, taxCountry: 'AU', taxName: 'GST', taxAmount: gst });
    expect(Number(charge.taxRateBp)).toBe(1000);

    // With tax on top, Stripe's total would not be the quoted one: the session is ended and nothing is charged.
    const registered = [...stripe.objects.values()].filter((o) => o.object === 'checkout.session').length;
    stripe.beforeNext('POST /v1/checkout/sessions', async () => stripe.registerTax({ country: 'NZ' }));
    const refused = await request(app)
      .post('/api/store/checkout')
      .send({ productId: dollar.id, email: 'stripe.nz@example.com', billing: { country: 'NZ' } });
    expect(refused.status).toBe(502);
    expect(refused.body.code).toBe('payment-provider-unavailable');
    const sessions = [...stripe.objects.values()].filter((o) => o.object === 'checkout.session');
    expect(sessions).toHaveLength(registered + 1);
    expect(sessions.at(-1)).toMatchObject({ status: 'expired', amount_total: 4900 + taxOnTop(4900, 1500) });
  });

  it('asks Stripe once for the same question while the read caches keep it', async () => {
    const cached = testApp(db(), { config: testConfig({ ...standInEnv(stripe), READ_CACHE_MS: '60000' }) });
    const ask = (query: Record<string, string>) =>
      request(cached).get(`/api/store/products/${euro.id}/quote`).query(query);
    const before = calculations();
    const answers = await Promise.all([ask({ billingCountry: 'AT' }), ask({ billingCountry: 'AT' })]);
    expect((await ask({ billingCountry: 'AT' })).body.quote.tax).toMatchObject({ country: 'AT', rate: 2000 });
    expect(answers.map((a) => a.body.quote.tax.amount)).toEqual([taxInside(11900, 2000), taxInside(11900, 2000)]);
    expect(calculations()).toBe(before + 1);
    // Another place is another question.
    expect((await ask({ billingCountry: 'IT' })).body.quote.tax).toMatchObject({ country: 'IT', rate: 2200 });
    expect(calculations()).toBe(before + 2);
  });

  it('answers 502 when Stripe Tax cannot be reached, and does not ask Stripe at all while the school collects no tax', async () => {
    stripe.failNext('POST /v1/tax/calculations', 3);
    const down = await quote(euro.id, { billingCountry: 'DE' });
    expect(down.status).toBe(502);
    expect(down.body.code).toBe('payment-provider-unavailable');
    // A checkout whose tax Stripe cannot compute, or whose customer it cannot make, starts nothing payable.
    const sessionsBefore = [...stripe.objects.values()].filter((o) => o.object === 'checkout.session').length;
    for (const path of ['POST /v1/tax/calculations', 'POST /v1/customers']) {
      stripe.failNext(path, 3);
      const email = `stripe.down.${path.split('/').at(-1)}@example.com`;
      const refused = await request(app)
        .post('/api/store/checkout')
        .send({ productId: euro.id, email, billing: { country: 'DE' } });
      expect(refused.status).toBe(502);
      expect(refused.body.code).toBe('payment-provider-unavailable');
      // Refused while pricing (the tax): no checkout; refused at the provider (the customer): canceled, its hold gone.
      const rows = await db()('checkouts').where({ buyerEmail: email }).pluck('status');
      expect(rows).toEqual(path === 'POST /v1/customers' ? ['canceled'] : []);
    }
    expect([...stripe.objects.values()].filter((o) => o.object === 'checkout.session')).toHaveLength(sessionsBefore);

    await db()('schoolSettings').update({ taxCountry: null });
    const before = calculations();
    const untaxed = await quote(euro.id, { billingCountry: 'DE' });
    expect(untaxed.status).toBe(200);
    expect(untaxed.body.quote).toMatchObject({ total: 11900, tax: null });
    const { session, charge } = await bought({
      productId: euro.id,
      email: 'stripe.untaxed@example.com',
      billing: { country: 'DE' },
    });
    expect(calculations()).toBe(before);
    expect(session.automatic_tax).toMatchObject({ enabled: false });
    expect(charge).toMatchObject({ amount: 11900, taxCountry: null, taxAmount: 0 });
    await db()('schoolSettings').update({ taxCountry: 'DE' });
  });
  it('asks a US buyer for their ZIP code (Stripe cannot tax a state alone): no calculation spent, checkout refused on the field', async () => {
    // Stripe itself refuses a US address without a ZIP code.
    const sdk = stripeClient(testConfig(standInEnv(stripe)));
    const refusedByStripe = await sdk.tax.calculations
      .create({
        currency: 'usd',
        line_items: [{ amount: 4900, reference: 'sale', tax_behavior: 'exclusive' }],
        customer_details: { address: { country: 'US', state: 'WA' }, address_source: 'billing' },
      })
      .catch((error: { statusCode?: number; code?: string }) => error);
    expect(refusedByStripe).toMatchObject({ statusCode: 400, code: 'customer_tax_location_invalid' });

    const before = calculations();
    const asked = await quote(dollar.id, { billingCountry: 'US', region: 'WA' });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    expect(asked.body.quote).toMatchObject({ finalPrice: 4900, total: 4900, tax: null });
    expect(asked.body.billing).toMatchObject({
      country: 'US',
      region: 'WA',
      postalCode: null,
      postalCodeRequired: true,
      regionRequired: false,
      message: expect.stringMatching(/ZIP/),
    });
    expect(calculations()).toBe(before);

    // Written as no ZIP code is: asked again, Stripe not asked.
    const malformed = await quote(dollar.id, { billingCountry: 'US', region: 'WA', postalCode: '981' });
    expect(malformed.status).toBe(200);
    expect(malformed.body.billing).toMatchObject({
      postalCodeRequired: true,
      message: expect.stringMatching(/5 digits/),
    });
    expect(calculations()).toBe(before);

    // A ZIP code Stripe cannot place: Stripe answers customer_tax_location_invalid, the buyer is asked (never a 502).
    const unknown = await quote(dollar.id, { billingCountry: 'US', region: 'WA', postalCode: '00000' });
    expect(unknown.status, JSON.stringify(unknown.body)).toBe(200);
    expect(unknown.body.quote.tax).toBeNull();
    expect(unknown.body.billing).toMatchObject({ postalCode: '00000', postalCodeRequired: true });
    expect(calculations()).toBe(before + 1);

    // ZIP+4 is a ZIP code too.
    const zipPlus4 = await quote(dollar.id, { billingCountry: 'US', region: 'WA', postalCode: '98101-1234' });
    expect(zipPlus4.body.quote.tax).toMatchObject({ region: 'WA', rate: 1035 });
    expect(zipPlus4.body.billing).toMatchObject({ postalCode: '98101-1234', postalCodeRequired: false });

    for (const [billing, field] of [
      [{ country: 'US', region: 'WA' }, 'billing.postalCode'],
      [{ country: 'US', region: 'WA', postalCode: '9810' }, 'billing.postalCode'],
      [{ country: 'US', region: 'WA', postalCode: '00000' }, 'billing.postalCode'],
    ] as const) {
      const email = `stripe.nozip.${billing.postalCode ?? 'none'}@example.com`;
      const refused = await request(app).post('/api/store/checkout').send({ productId: dollar.id, email, billing });
      expect(refused.status, JSON.stringify(refused.body)).toBe(422);
      expect(refused.body.code).toBe('billing-postal-code-required');
      expect(refused.body.errors).toHaveProperty([field]);
      expect(await db()('checkouts').where({ buyerEmail: email }).first()).toBeUndefined();
    }

    // Given, it is on the checkout, the Stripe customer, and remembered for the buyer's next checkout.
    const buyer = await signedIn(db());
    const started = await as(buyer, request(app).post('/api/store/checkout')).send({
      productId: dollar.id,
      billing: { country: 'US', region: 'WA', postalCode: '98101' },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const checkout = await db()('checkouts').where({ id: started.body.checkoutId }).first();
    expect(checkout).toMatchObject({ billingPostalCode: '98101', taxRegion: 'WA' });
    const session = stripe.objects.get(await sessionOfCheckout(db(), started.body.checkoutId))!;
    expect(stripe.objects.get(session.customer as string)).toMatchObject({
      address: { country: 'US', state: 'WA', postal_code: '98101' },
    });
    const remembered = await as(buyer, request(app).get('/api/store/billing'));
    expect(remembered.body.data).toMatchObject({ country: 'US', region: 'WA', postalCode: '98101' });
  });

  it("keeps a Quebec sale's province though Stripe lists the federal GST first, with no province: GST + QST at 14.975 %", async () => {
    stripe.registerTax({ country: 'CA' });
    const qst = taxOnTop(4900, 1497.5);
    const answer = await quote(dollar.id, { billingCountry: 'CA', region: 'QC', postalCode: 'h2x 1y4' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.billing).toMatchObject({ region: 'QC', postalCode: 'H2X 1Y4', postalCodeRequired: false });
    expect(answer.body.quote).toMatchObject({
      total: 4900 + qst,
      tax: { country: 'CA', region: 'QC', rate: 1497.5, amount: qst, inclusive: false, name: 'GST + QST' },
    });
    const { session, charge, invoice } = await bought({
      productId: dollar.id,
      email: 'stripe.qc@example.com',
      billing: { country: 'CA', region: 'QC', postalCode: 'H2X 1Y4' },
    });
    const taxes = stripe.objects.get(session.customer as string)!;
    expect(taxes).toMatchObject({ address: { country: 'CA', state: 'QC', postal_code: 'H2X 1Y4' } });
    expect(session.amount_total).toBe(4900 + qst);
    expect(charge).toMatchObject({ taxCountry: 'CA', taxRegion: 'QC', taxAmount: qst, taxName: 'GST + QST' });
    expect(Number(charge.taxRateBp)).toBe(1497.5);
    expect(invoice).toMatchObject({ taxRegion: 'QC', taxAmount: qst });
    // The invoice's buyer address ends with the province and postal code given.
    expect(invoice.buyer).toMatchObject({ country: 'CA', region: 'QC', address: 'QC H2X 1Y4' });

    // A Canadian postal code not written as Canada writes them is asked again; a province alone places the buyer.
    const malformed = await quote(dollar.id, { billingCountry: 'CA', region: 'QC', postalCode: '123456' });
    expect(malformed.body.billing).toMatchObject({
      postalCodeRequired: true,
      message: expect.stringMatching(/A1A 1A1/),
    });
    const provinceOnly = await quote(dollar.id, { billingCountry: 'CA', region: 'ON' });
    expect(provinceOnly.body.quote.tax).toMatchObject({ country: 'CA', region: 'ON', rate: 1300, name: 'HST' });
  });

  it('counts the quotes that cost a Stripe Tax calculation per client address: the 61st in a minute is refused, cached answers are free', async () => {
    // The limit's minute is a fixed window: the app's clock stays inside one, however slowly the machine asks.
    const minute = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 30_000);
    const limited = testApp(db(), {
      clock: { now: () => minute },
      config: testConfig({
        ...standInEnv(stripe),
        READ_CACHE_MS: '60000',
        COMMERCE_LIMIT_SCALE: '1',
        TRUST_PROXY: 'true',
      }),
    });
    const { max } = COMMERCE_LIMITS.taxCalculationPerIp;
    // Each course is another question (its own reference and amount), so another calculation.
    const courses = [];
    for (let i = 0; i <= max; i++)
      courses.push(await createProduct(db(), { name: `Stripe Tax Limit ${i}`, unitAmount: 1000 + i, currency: 'eur' }));
    const ask = (course: { id: string }, ip: string) =>
      request(limited)
        .get(`/api/store/products/${course.id}/quote`)
        .set('X-Forwarded-For', ip)
        .query({ billingCountry: 'AT' });
    const before = calculations();
    for (const course of courses.slice(0, max)) {
      const answer = await ask(course, '192.0.2.80');
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.quote.tax).toMatchObject({ country: 'AT', rate: 2000 });
    }
    expect(calculations()).toBe(before + max);
    const refused = await ask(courses[max]!, '192.0.2.80');
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('rate-limited');
    expect(refused.headers['retry-after']).toBeDefined();
    expect(calculations()).toBe(before + max);
    // A question the cache answers costs Stripe nothing and is not counted; another address has its own count.
    expect((await ask(courses[0]!, '192.0.2.80')).status).toBe(200);
    expect((await ask(courses[max]!, '192.0.2.81')).status).toBe(200);
    expect(calculations()).toBe(before + max + 1);
  });
});
