import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { createServices } from '../../api/src/services';
import { testProviderFee } from '../../api/src/payments/test-provider';
import { taxInside, taxOnTop, taxRefunded } from '../../api/src/tax/amounts';
import { createCoupon, createProduct, createPurchase, makeUpgradable } from '../../seeds/factories';
import { testConfig, testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { sessionOfCheckout } from '../support/checkout';
import { expectCommerceInvariants } from '../support/commerce-invariants';
import { useTestDatabase } from '../support/db';
import { setSchoolTax } from '../support/school-tax';

/**
 * Tax at checkout (docs/domain.md §18) with the built-in rate table: a school established in Germany, registered for
 * the EU's One-Stop Shop, in the United Kingdom and in Washington State; euro prices include tax, dollar prices do not.
 */
describe('checkout with tax', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const proxied = testConfig({ TRUST_PROXY: 'true', COUNTRY_HEADER: 'cf-ipcountry', REGION_HEADER: 'cf-region' });
  /** The app behind a trusted proxy that places the buyer (the detected country and region). */
  const app = () => createApp(testDeps(db(), { config: proxied })).callback();
  const from = (country: string, region?: string) => ({
    'cf-ipcountry': country,
    ...(region && { 'cf-region': region }),
  });
  let euro: { id: string };
  let dollar: { id: string };

  beforeAll(async () => {
    await setSchoolTax(db(), {
      registrations: [
        { country: 'US', region: 'WA' },
        { country: 'GB', region: null },
      ],
    });
    euro = await createProduct(db(), { name: 'Tax Euro Course', unitAmount: 11900, currency: 'eur' });
    dollar = await createProduct(db(), { name: 'Tax Dollar Course', unitAmount: 4900, currency: 'usd' });
  });

  const quote = (productId: string, query: Record<string, string | number>, country = 'US', region?: string) =>
    request(app()).get(`/api/store/products/${productId}/quote`).set(from(country, region)).query(query);
  const checkout = (body: object, country = 'US', buyer?: SignedIn, region?: string) => {
    const call = request(app()).post('/api/store/checkout').set(from(country, region));
    return (buyer ? as(buyer, call) : call).send(body);
  };

  /** The buyer on the provider's hosted page: it shows the tax and the total; Pay, then the thank-you page asks. */
  async function pay(url: string, checkoutId: string): Promise<{ page: string }> {
    const { pathname } = new URL(url);
    const page = await request(app()).get(pathname);
    expect(page.status).toBe(200);
    expect((await request(app()).post(`${pathname}/pay`)).status).toBe(303);
    const done = await request(app()).get(`/api/store/checkouts/${checkoutId}`);
    expect(done.body.status).toBe('fulfilled');
    return { page: page.text };
  }

  const chargeOf = async (checkoutId: string) =>
    db()('checkouts as k')
      .join('purchases as p', 'p.id', 'k.purchaseId')
      .join('merchantCharges as c', 'c.id', 'p.merchantChargeId')
      .where('k.id', checkoutId)
      .first('c.*');
  const lineSum = async (chargeId: string, kind?: string) => {
    const row = await db()('splitLines')
      .where({ merchantChargeId: chargeId, ...(kind && { kind }) })
      .sum({ total: 'amount' })
      .first();
    return Number(row?.total ?? 0);
  };

  it("taxes a German consumer at Germany's rate, inside the price", async () => {
    const answer = await quote(euro.id, {}, 'DE');
    expect(answer.status).toBe(200);
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
    expect(answer.body.billing).toMatchObject({ country: 'DE', vatIdProblem: null, regionRequired: false });

    const started = await checkout({ productId: euro.id, email: 'de.consumer@example.com' }, 'DE');
    expect(started.status).toBe(201);
    const { page } = await pay(started.body.url, started.body.checkoutId);
    expect(page).toContain('Includes €19.00 VAT (19 %)');
    const charge = await chargeOf(started.body.checkoutId);
    expect(charge).toMatchObject({ amount: 11900, taxCountry: 'DE', taxRateBp: 1900, taxAmount: 1900 });
    expect(charge.taxInclusive).toBe(true);
    expect(await lineSum(charge.id)).toBe(11900 - 1900 - testProviderFee(11900));
  });

  it("taxes a French consumer at France's rate through the One-Stop Shop", async () => {
    const answer = await quote(euro.id, { billingCountry: 'FR' }, 'DE');
    expect(answer.body.quote.tax).toMatchObject({ country: 'FR', rate: 2000, amount: taxInside(11900, 2000) });
    expect(answer.body.quote.total).toBe(11900);
    const started = await checkout(
      { productId: euro.id, email: 'fr.consumer@example.com', billing: { country: 'FR' } },
      'DE',
    );
    await pay(started.body.url, started.body.checkoutId);
    const row = await db()('checkouts').where({ id: started.body.checkoutId }).first();
    expect(row).toMatchObject({ billingCountry: 'FR', taxCountry: 'FR', taxAmount: taxInside(11900, 2000) });
  });

  it('reverse-charges a French business with a VAT ID: the price is charged, no tax', async () => {
    const billing = {
      country: 'FR',
      vatId: 'fr 12 345678901',
      company: 'Atelier SARL',
      address: '1 rue de la Paix\nParis',
    };
    const answer = await quote(euro.id, { billingCountry: 'FR', vatId: billing.vatId }, 'FR');
    expect(answer.body.quote.tax).toEqual({
      country: 'FR',
      region: null,
      rate: 0,
      amount: 0,
      inclusive: true,
      reverseCharge: true,
      name: 'VAT',
    });
    expect(answer.body.billing.vatId).toBe('FR12345678901');
    const buyer = await signedIn(db());
    const started = await checkout({ productId: euro.id, billing }, 'FR', buyer);
    expect(started.status).toBe(201);
    const { page } = await pay(started.body.url, started.body.checkoutId);
    expect(page).toContain('Reverse charge: VAT is accounted for by the buyer');
    const row = await db()('checkouts').where({ id: started.body.checkoutId }).first();
    expect(row).toMatchObject({
      amountTotal: 11900,
      billingCompany: 'Atelier SARL',
      billingAddress: '1 rue de la Paix\nParis',
      billingVatId: 'FR12345678901',
      taxReverseCharge: true,
      taxAmount: 0,
    });
    const charge = await chargeOf(started.body.checkoutId);
    expect(charge).toMatchObject({ amount: 11900, taxReverseCharge: true, taxAmount: 0, taxCountry: 'FR' });
    // Remembered for the next checkout and for correcting the invoice.
    const remembered = await as(buyer, request(app()).get('/api/store/billing'));
    expect(remembered.body.data).toEqual({
      company: 'Atelier SARL',
      address: '1 rue de la Paix\nParis',
      country: 'FR',
      region: null,
      postalCode: '',
      vatId: 'FR12345678901',
    });
  });

  it('adds sales tax on top in a taxing US state: the preview, the checkout and the charge agree', async () => {
    const tax = taxOnTop(4900, 650);
    const answer = await quote(dollar.id, { region: 'wa' });
    expect(answer.body.quote).toMatchObject({
      finalPrice: 4900,
      total: 4900 + tax,
      tax: { country: 'US', region: 'WA', rate: 650, amount: tax, inclusive: false, name: 'Sales tax' },
    });
    const started = await checkout({ productId: dollar.id, email: 'wa@example.com', billing: { region: 'WA' } });
    const { page } = await pay(started.body.url, started.body.checkoutId);
    expect(page).toContain('+ $3.19 sales tax (6.5 %)');
    expect(page).toContain('$52.19');
    const row = await db()('checkouts').where({ id: started.body.checkoutId }).first();
    expect(row.amountTotal).toBe(answer.body.quote.total);
    const session = await sessionOfCheckout(db(), started.body.checkoutId);
    expect(await db()('testProviderSessions').where({ identifier: session }).first()).toMatchObject({
      amount: row.amountTotal,
    });
    const charge = await chargeOf(started.body.checkoutId);
    expect(charge).toMatchObject({
      amount: 4900 + tax,
      taxCountry: 'US',
      taxRegion: 'WA',
      taxRateBp: 650,
      taxName: 'Sales tax',
      taxInclusive: false,
      taxAmount: tax,
    });
    const fee = testProviderFee(4900 + tax);
    expect(await lineSum(charge.id)).toBe(4900 - fee);

    // A lost dispute of the whole charge takes its revenue back, never the tax.
    const services = createServices(testDeps(db()));
    await services.lifecycle.disputeOpened(charge.merchantAccountId, {
      identifier: 'dp_tax_lost',
      chargeIdentifier: charge.identifier,
      amount: charge.amount,
      reason: 'fraudulent',
    });
    await services.lifecycle.disputeClosed(charge.merchantAccountId, {
      identifier: 'dp_tax_lost',
      chargeIdentifier: charge.identifier,
      amount: charge.amount,
      reason: 'fraudulent',
      won: false,
    });
    expect(await lineSum(charge.id, 'dispute')).toBe(-(charge.amount - tax));
    expect(await lineSum(charge.id)).toBe(-fee);
    await expectCommerceInvariants(db());
  });

  it('gives tax back in proportion on a partial refund, and all of it with the rest', async () => {
    const tax = taxOnTop(4900, 650);
    const started = await checkout({ productId: dollar.id, email: 'refund.wa@example.com', billing: { region: 'WA' } });
    await pay(started.body.url, started.body.checkoutId);
    const charge = await chargeOf(started.body.checkoutId);
    const purchase = await db()('purchases').where({ merchantChargeId: charge.id }).first('id');
    const support = await signedIn(db(), ['support']);
    const refund = (body: object) =>
      as(support, request(app()).post(`/api/admin/purchases/${purchase.id}/refund`)).send(body);
    expect((await refund({ amount: 2000, reasonCode: 'customer-request', reason: 'Late start' })).status).toBe(200);
    const part = await db()('merchantCharges').where({ id: charge.id }).first();
    expect(part).toMatchObject({ refundAmount: 2000, refundedTax: taxRefunded(2000, charge.amount, tax) });
    await expectCommerceInvariants(db());
    expect((await refund({ reasonCode: 'customer-request', reason: 'Changed their mind' })).status).toBe(200);
    expect(await db()('merchantCharges').where({ id: charge.id }).first()).toMatchObject({
      refundAmount: charge.amount,
      refundedTax: tax,
    });
    // Revenue goes back to nothing but the fee; the tax went back to the buyer.
    expect(await lineSum(charge.id)).toBe(-testProviderFee(charge.amount));
    await expectCommerceInvariants(db());
  });

  it('credits an upgrade with what was paid for the course, never the sales tax added on top', async () => {
    const buyer = await signedIn(db());
    const source = await createProduct(db(), { name: 'Tax Upgrade Source', unitAmount: 4900, currency: 'usd' });
    const target = await createProduct(db(), { name: 'Tax Upgrade Target', unitAmount: 9900, currency: 'usd' });
    await makeUpgradable(db(), source, target);
    const started = await checkout({ productId: source.id, billing: { region: 'WA' } }, 'US', buyer);
    await pay(started.body.url, started.body.checkoutId);
    expect((await chargeOf(started.body.checkoutId)).amount).toBe(4900 + taxOnTop(4900, 650));

    const upgrade = await as(
      buyer,
      request(app()).get(`/api/store/products/${target.id}/quote`).set(from('US')).query({ region: 'WA' }),
    );
    expect(upgrade.body.quote).toMatchObject({ credit: 4900, finalPrice: 5000, tax: { amount: taxOnTop(5000, 650) } });
    expect(upgrade.body.quote.total).toBe(5000 + taxOnTop(5000, 650));
  });

  it("takes the detected state when the buyer names none, and none in a state where the school doesn't collect", async () => {
    expect((await quote(dollar.id, {}, 'US', 'WA')).body.quote.tax).toMatchObject({ region: 'WA', rate: 650 });
    const california = await quote(dollar.id, { region: 'CA' });
    expect(california.body.quote).toMatchObject({ tax: null, total: 4900 });
    const started = await checkout({ productId: dollar.id, email: 'ca@example.com', billing: { region: 'CA' } });
    expect(started.status).toBe(201);
    await pay(started.body.url, started.body.checkoutId);
    const charge = await chargeOf(started.body.checkoutId);
    expect(charge).toMatchObject({ amount: 4900, taxCountry: null, taxAmount: 0 });
  });

  it('charges no tax where the school is not registered', async () => {
    const answer = await quote(dollar.id, {}, 'JP');
    expect(answer.body.quote).toMatchObject({ tax: null, total: 4900 });
    expect(answer.body.billing).toMatchObject({ country: 'JP', regionRequired: false, message: null });
    const started = await checkout({ productId: dollar.id, email: 'jp@example.com' }, 'JP');
    await pay(started.body.url, started.body.checkoutId);
    expect(await chargeOf(started.body.checkoutId)).toMatchObject({ amount: 4900, taxCountry: null, taxAmount: 0 });
  });

  it('prices a VAT ID that does not fit as a consumer, and checkout refuses it writing nothing', async () => {
    const answer = await quote(euro.id, { billingCountry: 'FR', vatId: 'DE123456789' }, 'FR');
    expect(answer.body.billing).toMatchObject({ vatIdProblem: 'vat-id-other-country', message: expect.any(String) });
    expect(answer.body.quote.tax).toMatchObject({ country: 'FR', rate: 2000, reverseCharge: false });
    const garbled = await quote(euro.id, { billingCountry: 'FR', vatId: 'FR123' }, 'FR');
    expect(garbled.body.billing.vatIdProblem).toBe('vat-id-format');

    const buyer = await signedIn(db());
    const before = await db()('checkouts').count({ n: '*' }).first();
    const refused = await checkout({ productId: euro.id, billing: { country: 'FR', vatId: 'FR123' } }, 'FR', buyer);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'vat-id-invalid', errors: { 'billing.vatId': expect.any(String) } });
    expect(await db()('checkouts').count({ n: '*' }).first()).toEqual(before);
    expect(await db()('billingProfiles').where({ userId: buyer.user.id }).first()).toBeUndefined();

    const put = await as(buyer, request(app()).put('/api/store/billing')).send({ country: 'FR', vatId: 'FR123' });
    expect(put.status).toBe(422);
    expect(put.body.errors).toMatchObject({ vatId: expect.any(String) });
    const fixed = await as(buyer, request(app()).put('/api/store/billing')).send({
      country: 'fr',
      vatId: 'FR12345678901',
    });
    expect(fixed.body.data).toMatchObject({ country: 'FR', vatId: 'FR12345678901', company: '' });
  });

  it('asks a US buyer for their state where it decides the tax', async () => {
    const answer = await quote(dollar.id, {});
    expect(answer.body.quote.tax).toBeNull();
    expect(answer.body.billing).toMatchObject({ regionRequired: true, message: expect.any(String) });
    const before = await db()('checkouts').count({ n: '*' }).first();
    const refused = await checkout({ productId: dollar.id, email: 'somewhere@example.com' });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: 'billing-region-required',
      errors: { 'billing.region': expect.any(String) },
    });
    expect(await db()('checkouts').count({ n: '*' }).first()).toEqual(before);
  });

  it('refuses a region that is no state or province of the billing country: asked again, never priced untaxed', async () => {
    // US-ZZ is no state: the quote says so instead of pricing it untaxed.
    const answer = await quote(dollar.id, { billingCountry: 'US', region: 'ZZ' });
    expect(answer.status).toBe(200);
    expect(answer.body.quote).toMatchObject({ total: 4900, tax: null });
    expect(answer.body.billing).toMatchObject({ region: null, regionRequired: true, message: expect.any(String) });
    // A province is not a US state, a state is not a Canadian province; Washington DC is a place sales tax is per.
    expect((await quote(dollar.id, { billingCountry: 'US', region: 'ON' })).body.billing.regionRequired).toBe(true);
    expect((await quote(dollar.id, { billingCountry: 'CA', region: 'WA' })).body.billing.regionRequired).toBe(true);
    expect((await quote(dollar.id, { billingCountry: 'US', region: 'DC' })).body.billing).toMatchObject({
      region: 'DC',
      regionRequired: false,
    });
    // The proxy's region header is used only when it is one of the country's codes.
    expect((await quote(dollar.id, {}, 'US', 'ZZ')).body.billing).toMatchObject({ region: null, regionRequired: true });

    const before = await db()('checkouts').count({ n: '*' }).first();
    const refused = await checkout({ productId: dollar.id, email: 'nowhere@example.com', billing: { region: 'ZZ' } });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: 'billing-region-invalid',
      errors: { 'billing.region': expect.any(String) },
    });
    const zip = await checkout({
      productId: dollar.id,
      email: 'nowhere@example.com',
      billing: { region: 'WA', postalCode: 'ABCDE' },
    });
    expect(zip.status).toBe(422);
    expect(zip.body).toMatchObject({
      code: 'billing-postal-code-required',
      errors: { 'billing.postalCode': expect.stringMatching(/5 digits/) },
    });
    expect(await db()('checkouts').count({ n: '*' }).first()).toEqual(before);

    // The remembered details are checked the same way, each on its field; a well-written code is kept as written.
    const buyer = await signedIn(db());
    const put = (body: object) => as(buyer, request(app()).put('/api/store/billing')).send(body);
    const unknown = await put({ country: 'US', region: 'ZZ' });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({ code: 'billing-region-invalid', errors: { region: expect.any(String) } });
    const garbled = await put({ country: 'CA', region: 'ON', postalCode: 'K1A' });
    expect(garbled.status).toBe(422);
    expect(garbled.body.errors).toMatchObject({ postalCode: expect.stringMatching(/A1A 1A1/) });
    const kept = await put({ country: 'CA', region: 'on', postalCode: 'k1a0b1' });
    expect(kept.status).toBe(200);
    expect(kept.body.data).toMatchObject({ country: 'CA', region: 'ON', postalCode: 'K1A 0B1' });
  });

  it('taxes the price after every discount: sale, coupon, regional price, team tier, upgrade credit', async () => {
    const course = await createProduct(db(), { name: 'Tax Discounts Course', unitAmount: 10000, currency: 'eur' });
    const expectTaxed = (body: { quote: { finalPrice: number; total: number; tax: { amount: number } } }) => {
      expect(body.quote.tax.amount).toBe(taxInside(body.quote.finalPrice, 1900));
      expect(body.quote.total).toBe(body.quote.finalPrice);
    };
    const coupon = await createCoupon(db(), { percentageDiscount: 0.3, restrictedToProductId: course.id });
    const couponed = await quote(course.id, { coupon: coupon.code!, billingCountry: 'DE' });
    expect(couponed.body.quote).toMatchObject({ finalPrice: 7000, discount: { kind: 'coupon' } });
    expectTaxed(couponed.body);

    // The regional price follows the detected country (India), the tax the billing one (Germany).
    const regional = await quote(course.id, { ppp: 'true', billingCountry: 'DE' }, 'IN');
    expect(regional.body.quote.discount).toMatchObject({ kind: 'ppp' });
    expectTaxed(regional.body);
    expect((await quote(course.id, { ppp: 'true', billingCountry: 'IN' }, 'DE')).body.quote.discount).toBeNull();

    const team = await quote(course.id, { quantity: 5, billingCountry: 'DE' });
    expect(team.body.quote).toMatchObject({ finalPrice: 42500, discount: { kind: 'team' } });
    expectTaxed(team.body);

    const buyer = await signedIn(db());
    const basic = await createProduct(db(), { name: 'Tax Basic Course', unitAmount: 4000, currency: 'eur' });
    await makeUpgradable(db(), basic, course);
    const owned = await createPurchase(db(), { user: buyer.user, product: basic, totalAmount: 4000 });
    await db()('purchases').where({ id: owned.id }).update({ currency: 'eur' });
    const upgrade = await as(
      buyer,
      request(app()).get(`/api/store/products/${course.id}/quote`).set(from('DE')).query({}),
    );
    expect(upgrade.body.quote).toMatchObject({ credit: 4000, finalPrice: 6000 });
    expectTaxed(upgrade.body);

    // The sale last: it runs for every product.
    await createCoupon(db(), { default: true, percentageDiscount: 0.2, restrictedToProductId: course.id });
    const sale = await quote(course.id, { billingCountry: 'DE' });
    expect(sale.body.quote).toMatchObject({ finalPrice: 8000, discount: { kind: 'default-coupon' } });
    expectTaxed(sale.body);

    // Exclusive prices: the tax comes on the discounted price, and is charged on top of it.
    const dollars = await createProduct(db(), { name: 'Tax Dollar Team Course', unitAmount: 10000, currency: 'usd' });
    const seats = await quote(dollars.id, { quantity: 10, region: 'WA' });
    expect(seats.body.quote).toMatchObject({ finalPrice: 75000, tax: { amount: taxOnTop(75000, 650) } });
    expect(seats.body.quote.total).toBe(75000 + taxOnTop(75000, 650));
    const started = await checkout(
      { productId: dollars.id, quantity: 10, team: true, billing: { region: 'WA' } },
      'US',
      buyer,
    );
    await pay(started.body.url, started.body.checkoutId);
    const row = await db()('checkouts').where({ id: started.body.checkoutId }).first();
    expect(row).toMatchObject({
      amountTotal: seats.body.quote.total,
      discountKind: 'team',
      discountBp: 2500,
      discountAmount: 25000,
      taxAmount: taxOnTop(75000, 650),
    });
    await expectCommerceInvariants(db());
  });
});
