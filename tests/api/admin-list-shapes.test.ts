import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProduct, createPurchase, createUser } from '../../seeds/factories';
import { testApp } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';

// A console list's statement is compiled once per shape (resource, sort, filters, search) and each request's values
// are bound into it: a later request of the same shape must see its own values, never the first one's.
describe('console lists of one shape with other values', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let admin: SignedIn;
  const ids: Record<string, string[]> = {};

  const list = async (resource: string, filter: Record<string, unknown>, range = [0, 9]) => {
    const res = await as(
      admin,
      request(testApp(db()))
        .get(`/api/admin/${resource}`)
        .query({
          filter: JSON.stringify(filter),
          sort: JSON.stringify(['createdAt', 'DESC']),
          range: JSON.stringify(range),
        }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { ids: (res.body as { id: string }[]).map((r) => r.id), range: res.headers['content-range'] as string };
  };

  beforeAll(async () => {
    admin = await signedIn(db(), ['admin']);
    for (const name of ['Alpha', 'Beta', 'Gamma']) {
      const product = await createProduct(db(), { name: `Shapes ${name}` });
      ids[name] = [];
      for (let day = 1; day <= 3; day++) {
        const user = await createUser(db());
        const createdAt = new Date(Date.UTC(2026, 9, day + 10 * Object.keys(ids).length));
        const purchase = await createPurchase(db(), { user, product, createdAt, totalAmount: 1000 * day });
        ids[name]!.unshift(purchase.id); // newest first
      }
      ids[`product:${name}`] = [product.id];
    }
  });

  it('binds each request its own values: an equality, a list of one and of two, a date range, a page', async () => {
    const product = (name: string) => ids[`product:${name}`]![0]!;
    for (const name of ['Alpha', 'Beta', 'Gamma', 'Alpha'])
      expect((await list('purchases', { productId: product(name) })).ids).toEqual(ids[name]);
    expect((await list('purchases', { productId: [product('Beta')] })).ids).toEqual(ids.Beta);
    expect((await list('purchases', { productId: [product('Gamma')] })).ids).toEqual(ids.Gamma);
    const two = await list('purchases', { productId: [product('Alpha'), product('Gamma')] });
    expect(two.ids).toEqual([...ids.Gamma!, ...ids.Alpha!]);
    expect(two.range).toBe('purchases 0-5/6');
    const page = await list('purchases', { productId: product('Beta') }, [1, 1]);
    expect(page).toEqual({ ids: [ids.Beta![1]], range: 'purchases 1-1/3' });
    // Past the end: no row carries the count, which is then counted apart.
    expect(await list('purchases', { productId: product('Beta') }, [5, 9])).toEqual({
      ids: [],
      range: 'purchases */3',
    });
    const dated = await list('purchases', { productId: product('Alpha'), createdAt_gte: '2026-10-12' });
    expect(dated.ids).toEqual(ids.Alpha!.slice(0, 2));
    const later = await list('purchases', { productId: product('Alpha'), createdAt_gte: '2026-10-13' });
    expect(later.ids).toEqual(ids.Alpha!.slice(0, 1));
  });

  it('binds a search as its own pattern each time', async () => {
    const found = async (q: string) => (await list('products', { q })).ids.length;
    expect(await found('Shapes Alpha')).toBe(1);
    expect(await found('Shapes')).toBe(3);
    expect(await found('Shapes Beta')).toBe(1);
    // A wildcard typed in is a character to find, not a pattern.
    expect(await found('Shapes_')).toBe(0);
    expect(await found('Shapes%')).toBe(0);
  });
});
