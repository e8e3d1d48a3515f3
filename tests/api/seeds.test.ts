import { describe, expect, it } from 'vitest';
import {
  ContentResource,
  Coupon,
  MerchantAccount,
  type Price,
  Product,
  UpgradableProduct,
  User,
} from '../support/models';
import { ROLES } from '../../api/src/shared/roles';
import { runSeeds } from '../../seeds/run';
import { TEST_MERCHANT_ACCOUNT } from '../../seeds/reference';
import { DEMO_SCHOOL, DEMO_TAX } from '../../seeds/demo';
import { useTestDatabase } from '../support/db';

describe('seeds', () => {
  const database = useTestDatabase();

  it('loads reference data idempotently and the demo data only once', async () => {
    const db = database().db;
    expect(await runSeeds(db, { demo: true })).toEqual({ demoLoaded: true });
    const counts = async () => ({
      accounts: await MerchantAccount.query(db).resultSize(),
      products: await Product.query(db).resultSize(),
      users: await User.query(db).resultSize(),
      resources: await ContentResource.query(db).resultSize(),
    });
    const first = await counts();
    expect(await runSeeds(db, { demo: true })).toEqual({ demoLoaded: false });
    expect(await Promise.all([runSeeds(db, { demo: true }), runSeeds(db, { demo: true })])).toEqual([
      { demoLoaded: false },
      { demoLoaded: false },
    ]);
    expect(await counts()).toEqual(first);
    expect(await MerchantAccount.query(db).where('label', TEST_MERCHANT_ACCOUNT.label).resultSize()).toBe(1);
  });

  it('has the demo catalog the product needs', async () => {
    const db = database().db;
    const products = await Product.query(db).withGraphFetched('prices');
    expect(products.length).toBeGreaterThanOrEqual(3);
    // One current price per product, or per billing interval for a membership (All access: monthly and yearly).
    for (const product of products) {
      const active = product.prices!.filter((p: Price) => p.status === 'active');
      const intervals = active.map((p: Price) => p.billingInterval ?? 'once');
      expect(active.length).toBeGreaterThanOrEqual(1);
      expect(new Set(intervals).size).toBe(active.length);
    }
    const allAccess = products.find((p) => p.slug === 'all-access')!;
    expect(
      allAccess
        .prices!.filter((p: Price) => p.status === 'active')
        .map((p: Price) => p.billingInterval)
        .sort(),
    ).toEqual(['month', 'year']);
    expect(await UpgradableProduct.query(db).resultSize()).toBeGreaterThanOrEqual(1);
    expect(products.some((p) => p.productType === 'live' && p.quantityAvailable > 0)).toBe(true);
    // The demo school has its own name and a way to reach it, so every page and email shows how a school looks.
    expect(await db('schoolSettings').first('name', 'supportEmail', 'legalName')).toEqual({
      name: DEMO_SCHOOL.name,
      supportEmail: DEMO_SCHOOL.supportEmail,
      legalName: DEMO_SCHOOL.legalName,
    });

    // ...established in Germany on the One-Stop Shop, prices including tax in every currency it sells in
    expect(await db('schoolSettings').first('taxCountry', 'taxId', 'taxEuOss', 'taxInclusiveCurrencies')).toEqual({
      taxCountry: 'DE',
      taxId: DEMO_TAX.taxId,
      taxEuOss: true,
      taxInclusiveCurrencies: [
        ...new Set(products.flatMap((p) => (p.prices ?? []).map((price: Price) => price.currency))),
      ],
    });
    expect(await db('taxRegistrations').orderBy(['country', 'region']).select('country', 'region')).toEqual(
      [...DEMO_TAX.registrations].sort((a, b) => `${a.country}${a.region}`.localeCompare(`${b.country}${b.region}`)),
    );
    expect(await db('taxRates').where({ country: 'DE', region: null }).first('rateBp')).toEqual({ rateBp: 1900 });

    const course = await ContentResource.query(db)
      .findOne({ type: 'course' })
      .withGraphFetched('resources.resources.resources');
    const modules = course!.resources ?? [];
    expect(modules).toHaveLength(2);
    const lessons = modules.flatMap((m) => (m.resources ?? []).flatMap((s) => s.resources ?? []));
    expect(lessons.length).toBeGreaterThanOrEqual(8);
    for (const lesson of lessons) {
      expect(lesson.type).toBe('lesson');
      expect(lesson.fields.body).toMatch(/<p>/);
    }

    const coupons = await Coupon.query(db);
    expect(coupons.some((c) => c.default && c.status === 'active' && (!c.expires || c.expires > new Date()))).toBe(
      true,
    );
    expect(coupons.some((c) => !c.default && c.code && c.status === 'active')).toBe(true);

    const users = await User.query(db);
    for (const role of ROLES)
      expect(
        users.some((u) => u.roles.includes(role)),
        role,
      ).toBe(true);
    expect(users.find((u) => u.email === 'admin@example.com')?.roles).toContain('admin');
  });
});
