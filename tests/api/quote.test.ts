import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { Product } from '../support/models';
import { createCoupon, createPurchase } from '../../seeds/factories';
import { runSeeds } from '../../seeds/run';
import { testApp, testConfig } from '../support/app';
import { as, signedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';

describe('GET /api/store/products/:id/quote', () => {
  const database = useTestDatabase();
  let fundamentals: Product;
  let pro: Product;
  const app = () => testApp(database().db);
  const quote = (productId: string, query: Record<string, string | number> = {}) =>
    request(app()).get(`/api/store/products/${productId}/quote`).query(query);

  beforeAll(async () => {
    await runSeeds(database().db, { demo: true });
    fundamentals = (await Product.query(database().db).findOne({ key: 'typescript-fundamentals' }))!;
    pro = (await Product.query(database().db).findOne({ key: 'typescript-pro' }))!;
  });

  it('applies the running sale automatically and says when it ends', async () => {
    const response = await quote(fundamentals.id);
    expect(response.status).toBe(200);
    expect(response.body.quote).toMatchObject({
      fullPrice: 4900,
      finalPrice: 3920,
      discount: { kind: 'default-coupon', amount: 980 },
    });
    expect(response.body.sale).toMatchObject({ percent: 20, expires: expect.any(String) });
    expect(response.body).toMatchObject({ currency: 'usd', country: 'US', detectedCountry: 'US' });
  });

  it('explains why an entered coupon did not apply', async () => {
    const smaller = await quote(fundamentals.id, { coupon: 'welcome10' });
    expect(smaller.body.coupon).toEqual({ code: 'welcome10', problem: null, message: null });
    expect(smaller.body.quote.discount.kind).toBe('default-coupon');
    expect(smaller.body.quote.notApplied).toContainEqual({ kind: 'coupon', reason: 'saves-less' });

    // Signed out, one answer for every problem (codes cannot be probed); signed in, the reason.
    const unknown = await quote(fundamentals.id, { coupon: 'NOPE' });
    expect(unknown.status).toBe(200);
    expect(unknown.body.coupon).toMatchObject({ problem: 'coupon-not-valid', message: 'This code is not valid.' });
    await createCoupon(database().db, { code: 'OLD50', percentageDiscount: 0.5, expires: new Date(Date.now() - 1000) });
    expect((await quote(fundamentals.id, { coupon: 'OLD50' })).body.coupon.problem).toBe('coupon-not-valid');
    const learner = await signedIn(database().db);
    const precise = (code: string) =>
      as(learner, request(app()).get(`/api/store/products/${fundamentals.id}/quote`).query({ coupon: code }));
    expect((await precise('NOPE')).body.coupon).toMatchObject({
      problem: 'coupon-not-found',
      message: 'There is no coupon with that code.',
    });
    expect((await precise('OLD50')).body.coupon.problem).toBe('coupon-expired');
    await createCoupon(database().db, { code: 'HALF', percentageDiscount: 0.5 });
    expect((await quote(fundamentals.id, { coupon: 'half' })).body.quote).toMatchObject({
      finalPrice: 2450,
      discount: { kind: 'coupon' },
    });
  });

  it('offers the regional price, applies it when asked, and marks the purchase restricted', async () => {
    const offered = await quote(fundamentals.id, { country: 'IN' });
    expect(offered.body.ppp).toEqual({ country: 'IN', percent: 75 });
    expect(offered.body.quote.restricted).toBe(false);
    const taken = await quote(fundamentals.id, { country: 'in', ppp: 'true' });
    expect(taken.body.quote).toMatchObject({ finalPrice: 1225, restricted: true, discount: { kind: 'ppp' } });
    expect((await quote(fundamentals.id, { country: 'DE' })).body.ppp).toBeNull();
  });

  it('reads the country from the trusted proxy header only when configured to', async () => {
    const trusted = testApp(database().db, {
      config: testConfig({ TRUST_PROXY: 'true', COUNTRY_HEADER: 'cf-ipcountry' }),
    });
    const fromHeader = await request(trusted)
      .get(`/api/store/products/${fundamentals.id}/quote`)
      .set('CF-IPCountry', 'br');
    expect(fromHeader.body).toMatchObject({ detectedCountry: 'BR', ppp: { country: 'BR', percent: 55 } });
    const untrusted = await quote(fundamentals.id).set('CF-IPCountry', 'BR');
    expect(untrusted.body.detectedCountry).toBe('US');
  });

  it('prices teams by tier, counting seats bought before', async () => {
    expect((await quote(fundamentals.id, { quantity: 5 })).body.quote.discount).toMatchObject({
      kind: 'default-coupon',
      bp: 2000,
    });
    const ten = await quote(fundamentals.id, { quantity: 10 });
    expect(ten.body.quote).toMatchObject({
      fullPrice: 49_000,
      finalPrice: 36_750,
      discount: { kind: 'team', bp: 2500 },
    });
    expect(ten.body.team).toEqual({ seats: 10, existingSeats: 0 });
    expect(ten.body.ppp).toBeNull();
    // The tiers priced by travel with every quote, so the product page lists pricing's own table.
    expect(ten.body.teamTiers).toEqual([
      { min: 5, max: 9, bp: 1500 },
      { min: 10, max: 29, bp: 2500 },
      { min: 30, max: null, bp: 3500 },
    ]);
  });

  it('credits what a buyer paid for an upgradable course, net of refunds', async () => {
    const db = database().db;
    const buyer = await signedIn(db);
    const account = await db('merchantAccounts').first();
    const [mp] = await db('merchantProducts')
      .insert({ merchantAccountId: account.id, identifier: 'prod_up', productId: fundamentals.id })
      .returning('id');
    const [charge] = await db('merchantCharges')
      .insert({
        merchantAccountId: account.id,
        identifier: 'ch_up',
        amount: 4900,
        fee: 100,
        net: 4800,
        refundAmount: 900,
        userId: buyer.user.id,
        merchantProductId: mp.id,
      })
      .returning('id');
    const owned = await createPurchase(db, { user: buyer.user, product: fundamentals, totalAmount: 4900 });
    await db('purchases').where({ id: owned.id }).update({ merchantChargeId: charge.id });

    const upgrade = await as(buyer, request(app()).get(`/api/store/products/${pro.id}/quote`));
    expect(upgrade.body.upgrade).toEqual({
      fromPurchaseId: owned.id,
      fromProductId: fundamentals.id,
      credit: 4000,
      worth: 4000,
    });
    // The sale's 20 % comes off the full price, then the credit: $199 − $39.80 − $40.00 (docs/domain.md §5.3).
    expect(upgrade.body.quote).toMatchObject({
      fullPrice: 19_900,
      discount: { amount: 3980 },
      credit: 4000,
      finalPrice: 11_920,
    });

    // Owning Fundamentals already: another copy is a seat to give away.
    const again = await as(buyer, request(app()).get(`/api/store/products/${fundamentals.id}/quote`));
    expect(again.body.team).toEqual({ seats: 1, existingSeats: 0 });
    expect(again.body.upgrade).toBeNull();

    const other = await signedIn(db);
    const notTheirs = await as(other, request(app()).get(`/api/store/products/${pro.id}/quote`)).query({
      upgradeFrom: owned.id,
    });
    expect(notTheirs.status).toBe(409);
    expect(notTheirs.body.code).toBe('upgrade-not-available');
    expect((await quote(pro.id, { upgradeFrom: owned.id })).status).toBe(401);
  });

  it('refuses bad parameters and unknown products clearly', async () => {
    for (const query of [
      { quantity: 0 },
      { quantity: 101 },
      { quantity: 'two' },
      { country: 'USA' },
      { upgradeFrom: 'x' },
    ] as Record<string, string | number>[]) {
      const response = await quote(fundamentals.id, query);
      expect(response.status, JSON.stringify(query)).toBe(400);
      expect(response.body.code).toBe('validation-failed');
    }
    const missing = await quote('00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('product-not-found');
  });
});
