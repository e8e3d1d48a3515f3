import fc from 'fast-check';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import type { Product } from '../support/models';
import { createServices, type Services } from '../../api/src/services';
import { createCoupon, createCourse, createProduct, makeUpgradable } from '../../seeds/factories';
import { testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { boughtWithTestProvider } from '../support/checkout';
import { useTestDatabase } from '../support/db';

const DAY = 86_400_000;

/**
 * Issue 19 §2: the console's pricing simulator answers exactly the storefront's quote for the same customer and
 * inputs, over many generated combinations (product × country × regional price × coupon × seats × customer ×
 * upgrade source); refusals are the same refusals.
 */
describe('the pricing simulator', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let services: Services;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let products: Product[];
  let staff: SignedIn;
  /** A guest, someone who owns Basics (upgrade credit, partly refunded), a team lead with 4 seats bought. */
  let customers: (SignedIn | null)[];
  let basicsPurchase: string;

  beforeAll(async () => {
    const deps = testDeps(db());
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    const basics = await createProduct(db(), { name: 'Sim Basics', key: 'sim-basics', unitAmount: 4_900 });
    const pro = await createProduct(db(), { name: 'Sim Pro', key: 'sim-pro', unitAmount: 19_900 });
    const cheap = await createProduct(db(), { name: 'Sim Cheap', key: 'sim-cheap', unitAmount: 150 });
    products = [basics, pro, cheap];
    await makeUpgradable(db(), basics, pro);
    await createCourse(db(), { title: 'Sim course', modules: [] }, { products: [basics, pro] });
    staff = await signedIn(db(), ['support']);
    const owner = await signedIn(db());
    basicsPurchase = await boughtWithTestProvider(services, db(), { buyer: owner.user, productId: basics.id });
    expect(
      (
        await as(staff, request(app).post(`/api/admin/purchases/${basicsPurchase}/refund`)).send({
          amount: 700,
          reasonCode: 'customer-request',
          reason: 'Partial',
        })
      ).status,
    ).toBe(200);
    const lead = await signedIn(db());
    await boughtWithTestProvider(services, db(), { buyer: lead.user, productId: pro.id, quantity: 4, team: true });
    customers = [null, owner, lead];
    // Coupons after the purchases, so Basics was bought at its list price ($49).
    await createCoupon(db(), {
      default: true,
      code: null,
      percentageDiscount: 0.2,
      expires: new Date(Date.now() + 7 * DAY),
    });
    await createCoupon(db(), { code: 'TEN', percentageDiscount: 0.1 });
    await createCoupon(db(), { code: 'HALF', percentageDiscount: 0.5, restrictedToProductId: pro.id });
    await createCoupon(db(), { code: 'OLD', percentageDiscount: 0.3, expires: new Date(Date.now() - DAY) });
  });

  const combination = fc.record({
    product: fc.nat({ max: 2 }),
    customer: fc.nat({ max: 2 }),
    country: fc.constantFrom(undefined, 'US', 'IN', 'BR', 'DE', 'NG'),
    ppp: fc.boolean(),
    coupon: fc.constantFrom(undefined, 'TEN', 'HALF', 'OLD', 'NOPE'),
    quantity: fc.integer({ min: 1, max: 12 }),
    team: fc.boolean(),
    upgrade: fc.boolean(),
  });

  it('answers the storefront’s quote for the same customer, over many generated combinations', async () => {
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(combination, async (c) => {
        const product = products[c.product]!;
        const customer = customers[c.customer] ?? null;
        const query: Record<string, string> = { quantity: String(c.quantity) };
        if (c.country) query.country = c.country;
        if (c.ppp) query.ppp = 'true';
        if (c.team) query.team = 'true';
        if (c.coupon) query.coupon = c.coupon;
        // Only the Basics owner has a purchase to upgrade from; anyone else naming it is refused alike.
        if (c.upgrade && customer) query.upgradeFrom = basicsPurchase;

        const store = await as(
          customer ?? undefined,
          request(app).get(`/api/store/products/${product.id}/quote`),
        ).query(query);
        // Without a country the storefront prices for the one it detects: staff name it to the simulator.
        const country = c.country ?? store.body.detectedCountry;
        const simulated = await as(staff, request(app).get('/api/admin/pricing/simulate')).query({
          ...query,
          ...(country ? { country } : {}),
          productId: product.id,
          ...(customer ? { userId: customer.user.id } : {}),
        });
        if (store.status !== 200) {
          expect(simulated.status).toBe(store.status);
          expect(simulated.body.code).toBe(store.body.code);
          return;
        }
        expect(simulated.status).toBe(200);
        const { detectedCountry: _, ...storefrontQuote } = store.body;
        expect(simulated.body.quote).toEqual(storefrontQuote);
        compared++;
      }),
      { numRuns: 80 },
    );
    expect(compared).toBeGreaterThan(40); // most combinations price, rather than all being refused
  }, 120_000);

  it('says what the purchase grants: the courses, a team’s seats, the regional restriction, the credit it spends', async () => {
    const [basics, pro] = products as [Product, Product];
    const owner = customers[1]!;
    const upgrade = await as(staff, request(app).get('/api/admin/pricing/simulate')).query({
      productId: pro.id,
      userId: owner.user.id,
    });
    expect(upgrade.status).toBe(200);
    // $199 − 20 % sale = $159.20; the credit is what Basics was worth after its $7 refund ($49 − $7 = $42).
    expect(upgrade.body.quote.quote).toMatchObject({
      fullPrice: 19_900,
      credit: 4_200,
      finalPrice: 19_900 - 3_980 - 4_200,
    });
    expect(upgrade.body.grants).toMatchObject({
      access: 'full',
      courses: [{ title: 'Sim course' }],
      spends: basicsPurchase,
      seats: null,
    });
    const regional = await as(staff, request(app).get('/api/admin/pricing/simulate')).query({
      productId: basics.id,
      country: 'IN',
      ppp: 'true',
    });
    expect(regional.body.grants).toMatchObject({ access: 'restricted', restrictedTo: 'IN' });
    const team = await as(staff, request(app).get('/api/admin/pricing/simulate')).query({
      productId: pro.id,
      userId: customers[2]!.user.id,
      quantity: '3',
      team: 'true',
    });
    // 4 seats already bought + 3 = 7: the 15 % tier beats nothing, but the 20 % sale saves more.
    expect(team.body.quote.team).toEqual({ seats: 7, existingSeats: 4 });
    expect(team.body.grants).toMatchObject({ access: 'seats', seats: 3 });
    expect(team.body.quote.quote.notApplied).toEqual(expect.arrayContaining([{ kind: 'team', reason: 'saves-less' }]));
  });

  it('refuses what it cannot price with the storefront’s codes, and learners altogether', async () => {
    const learner = customers[1]!;
    expect(
      (await as(learner, request(app).get('/api/admin/pricing/simulate')).query({ productId: products[0]!.id })).status,
    ).toBe(403);
    const nobody = '00000000-0000-4000-8000-000000000000';
    const missing = await as(staff, request(app).get('/api/admin/pricing/simulate')).query({ productId: nobody });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('product-not-found');
    const upgradeAlone = await as(staff, request(app).get('/api/admin/pricing/simulate')).query({
      productId: products[1]!.id,
      upgradeFrom: basicsPurchase,
    });
    expect(upgradeAlone.status).toBe(400);
    expect(upgradeAlone.body.code).toBe('validation-failed');
    const tooMany = await as(staff, request(app).get('/api/admin/pricing/simulate')).query({
      productId: products[1]!.id,
      quantity: '101',
    });
    expect(tooMany.status).toBe(400);
  });
});
