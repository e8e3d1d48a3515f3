import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_PAGE_SIZE } from '../../api/src/list-query/schemas';
import { testApp } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { seedEverything } from '../support/everything';
import { createResource } from '../../seeds/factories';

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

    const refund = await post(`purchases/${fixture.purchase.id}/refund`, {
      amount: 1000.5,
      reasonCode: 'customer-request',
      reason: 'Too precise',
    });
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

  it('shows a contributor their own content whole, others’ published content without its body, and no one else’s drafts', async () => {
    const author = await signedIn(db(), ['contributor']);
    const other = await signedIn(db(), ['contributor']);
    const finance = await signedIn(db(), ['finance']);
    const paid = await createResource(
      db(),
      'lesson',
      { title: 'Paid lesson of A', body: '<p>Secret answer</p>' },
      author.user.id,
    );
    const draft = await createResource(
      db(),
      'lesson',
      { title: 'Draft of A', body: '<p>Not ready</p>', state: 'draft' },
      author.user.id,
    );
    const mine = await createResource(
      db(),
      'lesson',
      { title: 'Draft of B', body: '<p>Mine</p>', state: 'draft' },
      other.user.id,
    );
    const read = (who: SignedIn, path: string) => as(who, request(app()).get(`/api/admin/content-resources${path}`));

    const listed = await read(
      other,
      `?filter=${encodeURIComponent(JSON.stringify({ id: [paid.id, draft.id, mine.id] }))}`,
    );
    expect(listed.status).toBe(200);
    const byId = new Map(listed.body.map((r: { id: string }) => [r.id, r]));
    expect(byId.has(draft.id)).toBe(false);
    expect(byId.get(paid.id)).toMatchObject({ bodyWithheld: true, fields: { title: 'Paid lesson of A', body: null } });
    expect(byId.get(mine.id)).toMatchObject({ fields: { body: '<p>Mine</p>' } });
    expect(byId.get(mine.id) as object).not.toHaveProperty('bodyWithheld');
    expect((await read(other, `/${draft.id}`)).status).toBe(404);
    expect((await read(other, `/${paid.id}`)).body).toMatchObject({ fields: { body: null }, bodyWithheld: true });
    // Their author and staff read everything.
    expect((await read(author, `/${draft.id}`)).body.fields.body).toBe('<p>Not ready</p>');
    expect((await read(finance, `/${draft.id}`)).body.fields.body).toBe('<p>Not ready</p>');
    expect((await read(admin, `/${paid.id}`)).body.fields.body).toBe('<p>Secret answer</p>');
    // Still nobody else's to change.
    const changed = await as(other, request(app()).put(`/api/admin/content-resources/${paid.id}`)).send({
      fields: { title: 'Taken over' },
    });
    expect(changed.status).toBe(403);
  });

  it('lists the transfers owners started, leaving out the offers every purchase gets, unless asked for', async () => {
    const list = (filter: object) =>
      as(
        admin,
        request(app()).get(`/api/admin/purchase-user-transfers?filter=${encodeURIComponent(JSON.stringify(filter))}`),
      );
    const [canceled] = await db()('purchaseUserTransfers')
      .insert({
        purchaseId: fixture.purchase.id,
        sourceUserId: fixture.buyer.id,
        targetUserId: admin.user.id,
        transferState: 'CANCELED',
        canceledAt: new Date(),
        expiresAt: new Date(Date.now() + 86_400_000),
      })
      .returning('id');
    const everything = (await list({})).body as { id: string; transferState: string; targetUserId: string | null }[];
    expect(everything.some((t) => t.transferState === 'AVAILABLE')).toBe(true);
    const started = (await list({ started: true })).body as typeof everything;
    expect(started.map((t) => t.id)).toContain(canceled.id);
    expect(started.every((t) => t.targetUserId !== null || !['AVAILABLE', 'EXPIRED'].includes(t.transferState))).toBe(
      true,
    );
    const offers = (await list({ started: false })).body as typeof everything;
    expect(offers.length + started.length).toBe(everything.length);
    expect(offers.every((t) => t.transferState === 'AVAILABLE' || t.transferState === 'EXPIRED')).toBe(true);
  });
});
