import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_PAGE_SIZE } from '../../api/src/admin/schemas/list-query';
import { testApp } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { seedEverything } from '../support/everything';

/** The console QA's rules that are the API's: what the console refuses on the field, the API refuses too. */
describe('console QA rules in the API', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let admin: SignedIn;
  let fixture: Awaited<ReturnType<typeof seedEverything>>;
  const app = () => testApp(db());
  const post = (path: string, body: object) => as(admin, request(app()).post(`/api/admin/${path}`)).send(body);

  beforeAll(async () => {
    fixture = await seedEverything(db());
    admin = await signedIn(db(), ['admin']);
  });

  it('refuses a fraction of a cent on every amount, under its field, instead of rounding it', async () => {
    const price = await post('prices', { productId: fixture.product.id, unitAmount: 7999.9 });
    expect(price.status).toBe(400);
    expect(price.body.errors).toEqual({ unitAmount: 'must be a whole number of cents' });

    const product = await post('products', { name: 'Fractions', unitAmount: 7999.9 });
    expect(product.status).toBe(400);
    expect(Object.keys(product.body.errors)).toEqual(['unitAmount']);

    const refund = await post(`purchases/${fixture.purchase.id}/refund`, { amount: 1000.5, reason: 'Too precise' });
    expect(refund.status).toBe(400);
    expect(refund.body.errors).toEqual({ amount: 'whole cents' });
    expect((await db()('merchantCharges').where({ id: fixture.charge.id }).first()).refundAmount).toBe(900);
  });

  it('refuses a percentage with more decimals than numeric(5,4) holds (12.345 %)', async () => {
    const split = await post('product-revenue-splits', {
      productId: fixture.product.id,
      type: 'owner',
      percent: 0.12345,
      userId: fixture.buyer.id,
    });
    expect(split.status).toBe(400);
    expect(split.body.errors).toEqual({ percent: 'at most four decimals' });

    const coupon = await post('coupons', { code: 'PRECISE', percentageDiscount: 0.12345 });
    expect(coupon.status).toBe(400);
    expect(coupon.body.errors).toEqual({ percentageDiscount: 'at most four decimals' });

    // Two decimals of a percent are what the column holds, and are kept exactly.
    const kept = await post('coupons', { code: 'PRECISE', percentageDiscount: 0.1234 });
    expect(kept.status).toBe(201);
    expect(kept.body.percentageDiscount).toBe(0.1234);
  });

  it('serves the console up to 250 rows a page (and more, to its cap)', async () => {
    const page = (end: number) =>
      as(
        admin,
        request(app())
          .get('/api/admin/coupons')
          .query({ range: JSON.stringify([0, end]) }),
      );
    expect(MAX_PAGE_SIZE).toBeGreaterThanOrEqual(250);
    expect((await page(249)).status).toBe(200);
    const tooMany = await page(MAX_PAGE_SIZE);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors).toEqual({ range: `at most ${MAX_PAGE_SIZE} rows per page` });
  });
});
