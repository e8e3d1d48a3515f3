import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { REVERSE_CHARGE_NOTE } from '../../api/src/invoices/snapshots';
import { createServices, type Services } from '../../api/src/services';
import { taxInside, taxOnTop, taxRefunded } from '../../api/src/tax/amounts';
import { createCoupon, createProduct, makeUpgradable } from '../../seeds/factories';
import { testConfig, testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { sessionOfCheckout } from '../support/checkout';
import { useTestDatabase } from '../support/db';
import { expectTaxInvariants } from '../support/tax-invariants';

/**
 * Tax from the quote to the credit note (docs/domain.md §18), buyer by buyer: a school established in Germany on the
 * EU's One-Stop Shop, registered in the United Kingdom and in Washington State, sells to a German consumer, a French
 * business with a VAT ID, a US buyer in a taxing (WA) and in a non-taxing state (CA), and a buyer in Japan, where it
 * is not registered. Each buys at a sale, with a coupon, at the regional price, for a team and as an upgrade, then is
 * partly refunded, with euro prices including tax and dollar prices adding it: the tax quoted before paying is what
 * is charged and invoiced, every discount is named on the invoice, credit notes give the tax back in proportion, and
 * invoice and credit-note numbers follow each other.
 */

interface Billing {
  country: string;
  region?: string;
  vatId?: string;
  company?: string;
  address?: string;
}

interface Buyer {
  who: string;
  billing: Billing;
  /** The tax due, its amount aside; null: none is charged. */
  tax: { country: string; region: string | null; rate: number; name: string; reverseCharge: boolean } | null;
  /** What the invoice says under its totals. */
  note: string | null;
}

const BUYERS: Buyer[] = [
  {
    who: 'a German consumer',
    billing: { country: 'DE' },
    tax: { country: 'DE', region: null, rate: 1900, name: 'VAT', reverseCharge: false },
    note: null,
  },
  {
    who: 'a French business with a VAT ID',
    billing: {
      country: 'FR',
      vatId: 'FR40303265045',
      company: 'Atelier Durand SARL',
      address: '3 rue Oberkampf, Paris',
    },
    tax: { country: 'FR', region: null, rate: 0, name: 'VAT', reverseCharge: true },
    note: REVERSE_CHARGE_NOTE,
  },
  {
    who: 'a US buyer in Washington, a state that taxes',
    billing: { country: 'US', region: 'WA' },
    tax: { country: 'US', region: 'WA', rate: 650, name: 'Sales tax', reverseCharge: false },
    note: null,
  },
  {
    who: 'a US buyer in California, where the school is not registered',
    billing: { country: 'US', region: 'CA' },
    tax: null,
    note: 'Not subject to VAT in United States',
  },
  {
    who: 'a buyer in Japan, where the school is not registered',
    billing: { country: 'JP' },
    tax: null,
    note: 'Not subject to VAT in Japan',
  },
];

const PRICES = [
  { terms: 'euro prices including tax', currency: 'eur', inclusive: true },
  { terms: 'dollar prices adding tax', currency: 'usd', inclusive: false },
];

/** One purchase of a buyer's round: what is asked, where from, and the discount the invoice must name. */
interface Purchase {
  what: string;
  productId: string;
  query?: Record<string, string | number | boolean>;
  body?: Record<string, unknown>;
  /** The detected country (the regional price follows it, never the billing country). */
  from?: string;
  discount: string | RegExp | null;
  credit?: string;
}

interface Bought {
  charged: number;
  tax: number;
  purchaseId: string;
  invoiceId: string;
  invoiceNumber: string;
}

describe('tax scenarios: each buyer through a sale, a coupon, a regional price, a team, an upgrade and refunds', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let services: Services;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let support: SignedIn;
  let finance: SignedIn;
  /** The last invoice and credit-note sequence numbers issued: each next one must follow. */
  const last = { invoice: 0, 'credit-note': 0 };

  beforeAll(async () => {
    const deps = testDeps(db(), { config: testConfig({ TRUST_PROXY: 'true', COUNTRY_HEADER: 'x-country' }) });
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    support = await signedIn(db(), ['support']);
    finance = await signedIn(db(), ['finance']);
    await db()('schoolSettings').update({
      taxCountry: 'DE',
      taxId: 'DE123456789',
      taxEuOss: true,
      taxInclusiveCurrencies: ['eur'],
    });
    await db()('taxRegistrations').delete();
    await db()('taxRegistrations').insert([
      { country: 'GB', region: null },
      { country: 'US', region: 'WA' },
    ]);
    // California and Japan have rates, but the school is not registered there: they are not charged.
    await db()('taxRates').delete();
    await db()('taxRates').insert([
      { country: 'DE', region: null, rateBp: 1900, name: 'VAT' },
      { country: 'FR', region: null, rateBp: 2000, name: 'VAT' },
      { country: 'GB', region: null, rateBp: 2000, name: 'VAT' },
      { country: 'US', region: 'WA', rateBp: 650, name: 'Sales tax' },
      { country: 'US', region: 'CA', rateBp: 725, name: 'Sales tax' },
      { country: 'JP', region: null, rateBp: 1000, name: 'JCT' },
    ]);
    services.tax.setup.forget();
  });

  const billingQuery = ({ country, region, vatId }: Billing) => ({
    billingCountry: country,
    ...(region && { region }),
    ...(vatId && { vatId }),
  });

  /** The tax the buyer must see on a price after discounts, in the price's terms. */
  function expectedTax(buyer: Buyer, inclusive: boolean, price: number) {
    if (!buyer.tax || price === 0) return null;
    const { rate, reverseCharge } = buyer.tax;
    const amount = reverseCharge ? 0 : inclusive ? taxInside(price, rate) : taxOnTop(price, rate);
    return { ...buyer.tax, amount, inclusive };
  }

  const sequenceOf = (number: string) => Number(number.split('-').at(-1));

  /** Quotes, checks the tax before paying, pays, and checks the charge and the invoice against the quote. */
  async function buy(who: SignedIn, buyer: Buyer, inclusive: boolean, purchase: Purchase): Promise<Bought> {
    const about = `${buyer.who}, ${purchase.what}`;
    const from = purchase.from ?? buyer.billing.country;
    const quote = await as(
      who,
      request(app)
        .get(`/api/store/products/${purchase.productId}/quote`)
        .set('x-country', from)
        .query({ ...purchase.query, ...billingQuery(buyer.billing) }),
    );
    expect(quote.status, `${about}: quote ${JSON.stringify(quote.body)}`).toBe(200);
    const { finalPrice, total, tax } = quote.body.quote as { finalPrice: number; total: number; tax: unknown };
    const due = expectedTax(buyer, inclusive, finalPrice);
    expect(tax, `${about}: the tax shown before paying, on ${finalPrice}`).toEqual(due);
    expect(total, `${about}: the total shown before paying`).toBe(
      due && !inclusive ? finalPrice + due.amount : finalPrice,
    );

    const started = await as(who, request(app).post('/api/store/checkout').set('x-country', from)).send({
      productId: purchase.productId,
      ...purchase.body,
      billing: buyer.billing,
    });
    expect(started.status, `${about}: checkout ${JSON.stringify(started.body)}`).toBe(201);
    await services.testProvider.pay(await sessionOfCheckout(db(), started.body.checkoutId));
    const settled = await request(app).get(`/api/store/checkouts/${started.body.checkoutId}`);
    expect(settled.body.status, `${about}: settled`).toBe('fulfilled');

    const charge = await db()('purchases as p')
      .join('merchantCharges as c', 'c.id', 'p.merchantChargeId')
      .where('p.id', settled.body.purchaseId)
      .first('c.id', 'c.amount', 'c.taxAmount');
    expect({ amount: charge.amount, tax: charge.taxAmount }, `${about}: charged as quoted`).toEqual({
      amount: total,
      tax: due?.amount ?? 0,
    });

    const issued = await db()('invoices').where({ merchantChargeId: charge.id, kind: 'invoice' }).first('id');
    expect(issued, `${about}: an invoice is issued`).toBeDefined();
    const invoice = (await as(who, request(app).get(`/api/store/invoices/${issued.id}`))).body;
    expect(sequenceOf(invoice.number), `${about}: invoice ${invoice.number} follows the last one`).toBe(
      last.invoice + 1,
    );
    last.invoice++;
    expect(invoice.tax, `${about}: the invoice's tax`).toEqual(due);
    expect(
      { total: invoice.total, taxable: invoice.taxable, currency: invoice.currency },
      `${about}: the invoice's sums`,
    ).toEqual({ total, taxable: total - (due?.amount ?? 0), currency: quote.body.currency });
    const named = (kind: string) =>
      (invoice.lines as { kind: string; description: string }[])
        .filter((l) => l.kind === kind)
        .map((l) => l.description);
    if (purchase.discount === null) expect(named('discount'), `${about}: no discount`).toEqual([]);
    else
      expect(named('discount'), `${about}: the discount named`).toEqual([
        typeof purchase.discount === 'string' ? purchase.discount : expect.stringMatching(purchase.discount),
      ]);
    if (purchase.credit) expect(named('credit'), `${about}: the credit named`).toEqual([purchase.credit]);
    expect(
      (invoice.lines as { amount: number }[]).reduce((sum, l) => sum + l.amount, 0),
      `${about}: the lines add up to the price after discounts`,
    ).toBe(inclusive ? total : total - (due?.amount ?? 0));
    if (buyer.note) expect(invoice.notes, `${about}: the invoice's note`).toContain(buyer.note);
    if (buyer.billing.vatId) expect(invoice.buyer.vatId, `${about}: the buyer's VAT ID`).toBe(buyer.billing.vatId);
    return {
      charged: total,
      tax: due?.amount ?? 0,
      purchaseId: settled.body.purchaseId,
      invoiceId: invoice.id,
      invoiceNumber: invoice.number,
    };
  }

  /** Refunds part of a purchase: its credit note credits the invoice, for the amount and its tax in proportion. */
  async function refund(who: SignedIn, bought: Bought, amount: number, refundedBefore: number, about: string) {
    const answer = await as(support, request(app).post(`/api/admin/purchases/${bought.purchaseId}/refund`)).send({
      amount,
      reasonCode: 'customer-request',
      reason: 'asked by the buyer',
    });
    expect(answer.status, `${about}: refund ${JSON.stringify(answer.body)}`).toBe(200);
    const invoice = (await as(who, request(app).get(`/api/store/invoices/${bought.invoiceId}`))).body;
    const note = (invoice.creditNotes as { id: string }[]).at(-1);
    expect(note, `${about}: a credit note on the invoice page`).toBeDefined();
    const credit = (await as(who, request(app).get(`/api/store/invoices/${note!.id}`))).body;
    const refundedTo = refundedBefore + amount;
    const tax =
      taxRefunded(refundedTo, bought.charged, bought.tax) - taxRefunded(refundedBefore, bought.charged, bought.tax);
    expect(credit.kind).toBe('credit-note');
    expect(credit.number, `${about}: credit note numbers follow each other`).toBe(
      `CN-${credit.number.split('-')[1]}-${String(last['credit-note'] + 1).padStart(6, '0')}`,
    );
    last['credit-note']++;
    expect(credit.invoice?.number, `${about}: the credit note names its invoice`).toBe(bought.invoiceNumber);
    expect(
      { total: credit.total, tax: credit.tax?.amount ?? 0, taxable: credit.taxable },
      `${about}: ${amount} of ${bought.charged} refunded after ${refundedBefore}, tax back in proportion`,
    ).toEqual({ total: amount, tax, taxable: amount - tax });
    // Finance finds it in the console, naming the invoice it credits.
    const listed = await as(finance, request(app).get('/api/admin/invoices')).query({
      filter: JSON.stringify({ q: credit.number }),
    });
    expect(listed.status).toBe(200);
    expect(listed.body, `${about}: the credit note in the console`).toEqual([
      expect.objectContaining({ number: credit.number, kind: 'credit-note', invoiceId: bought.invoiceId }),
    ]);
    return tax;
  }

  describe.each(PRICES)('$terms', ({ currency, inclusive }) => {
    it.each(BUYERS)('$who', async (buyer) => {
      const who = await signedIn(db());
      const label = `${buyer.who} in ${currency}`;
      const product = (name: string, unitAmount: number) =>
        createProduct(db(), { name: `${name} (${label})`, unitAmount, currency });
      const onSale = await product('Sale Course', 10_000);
      await createCoupon(db(), {
        code: null,
        default: true,
        percentageDiscount: 0.25,
        restrictedToProductId: onSale.id,
      });
      const couponed = await product('Coupon Course', 8_000);
      const coupon = await createCoupon(db(), { percentageDiscount: 0.1, restrictedToProductId: couponed.id });
      const regional = await product('Regional Course', 12_000);
      const team = await product('Team Course', 5_000);
      const basics = await product('Basics', 4_900);
      const pro = await product('Pro', 19_900);
      await makeUpgradable(db(), basics, pro);

      const round: Purchase[] = [
        { what: 'at the sale', productId: onSale.id, discount: /^Sale \(25 %\)$/ },
        {
          what: 'with a coupon',
          productId: couponed.id,
          query: { coupon: coupon.code! },
          body: { coupon: coupon.code },
          discount: `Coupon ${coupon.code} (10 %)`,
        },
        {
          what: 'at the regional price',
          productId: regional.id,
          query: { ppp: true },
          body: { ppp: true },
          from: 'IN',
          discount: /^Regional price \(India, \d+ %\)$/,
        },
        {
          what: 'for a team of 5',
          productId: team.id,
          query: { quantity: 5, team: true },
          body: { quantity: 5, team: true },
          discount: 'Team discount (5 seats, 15 %)',
        },
        { what: 'the course an upgrade starts from', productId: basics.id, discount: null },
        {
          what: 'as an upgrade',
          productId: pro.id,
          discount: null,
          credit: `Upgrade credit: ${basics.name}`,
        },
      ];
      const bought: Bought[] = [];
      for (const purchase of round) bought.push(await buy(who, buyer, inclusive, purchase));

      // A partial refund of the team purchase, then of the upgrade twice, the second time what is left.
      const teamPurchase = bought[3]!;
      const upgrade = bought[5]!;
      await refund(who, teamPurchase, Math.floor(teamPurchase.charged / 3), 0, `${label}, the team purchase`);
      const part = Math.floor(upgrade.charged / 3) + 1;
      const first = await refund(who, upgrade, part, 0, `${label}, the upgrade`);
      const rest = await refund(who, upgrade, upgrade.charged - part, part, `${label}, the rest of the upgrade`);
      expect(first + rest, `${label}: refunded in full, all of the upgrade's tax is given back`).toBe(upgrade.tax);

      await expectTaxInvariants(db());
    });
  });

  it('numbers invoices and credit notes consecutively when the five buyers buy and are refunded at once', async () => {
    const course = await createProduct(db(), { name: 'Rush Course', unitAmount: 11_900, currency: 'eur' });
    const people = await Promise.all(BUYERS.map(() => signedIn(db())));
    const lastOf = async (kind: string) =>
      Number((await db()('invoices').where({ kind }).max({ last: 'sequence' }).first())?.last ?? 0);
    const [invoicesBefore, notesBefore] = [await lastOf('invoice'), await lastOf('credit-note')];

    // 20 purchases, four per buyer, started, paid and settled all at once.
    const purchases = await Promise.all(
      Array.from({ length: 20 }, async (_, n) => {
        const buyer = BUYERS[n % BUYERS.length]!;
        const who = people[n % BUYERS.length]!;
        const started = await as(
          who,
          request(app).post('/api/store/checkout').set('x-country', buyer.billing.country),
        ).send({ productId: course.id, quantity: 1, team: true, billing: buyer.billing });
        expect(started.status, `${buyer.who}: ${JSON.stringify(started.body)}`).toBe(201);
        await services.testProvider.pay(await sessionOfCheckout(db(), started.body.checkoutId));
        const settled = await request(app).get(`/api/store/checkouts/${started.body.checkoutId}`);
        expect(settled.body.status).toBe('fulfilled');
        return { buyer, who, purchaseId: settled.body.purchaseId as string };
      }),
    );
    const invoices = await db()('invoices as i')
      .join('purchases as p', 'p.merchantChargeId', 'i.merchantChargeId')
      .whereIn(
        'p.id',
        purchases.map((p) => p.purchaseId),
      )
      .where('i.kind', 'invoice')
      .select('p.id as purchaseId', 'i.sequence', 'i.taxAmount', 'i.total');
    expect(invoices.map((i) => i.sequence).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, n) => invoicesBefore + n + 1),
    );
    for (const { buyer, purchaseId } of purchases) {
      const invoice = invoices.find((i) => i.purchaseId === purchaseId)!;
      expect(invoice.taxAmount, `${buyer.who}: the tax on a team's seat at 119.00`).toBe(
        expectedTax(buyer, true, 11_900)?.amount ?? 0,
      );
    }

    // Half of them refunded in part at once: ten credit notes, numbered next.
    const refunds = await Promise.all(
      purchases.slice(0, 10).map(({ purchaseId }) =>
        as(support, request(app).post(`/api/admin/purchases/${purchaseId}/refund`)).send({
          amount: 4000,
          reasonCode: 'customer-request',
          reason: 'asked by the buyer',
        }),
      ),
    );
    expect(refunds.map((r) => r.status)).toEqual(Array(10).fill(200));
    const notes = await db()('invoices').where({ kind: 'credit-note' }).where('sequence', '>', notesBefore);
    expect(notes.map((n) => n.sequence).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 10 }, (_, n) => notesBefore + n + 1),
    );
    await expectTaxInvariants(db());
  });
});
