import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from '../../seeds/factories';
import { testApp } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';

describe('GET /api/admin/products (ra-data-simple-rest)', () => {
  const database = useTestDatabase();
  let admin: SignedIn;
  const app = () => testApp(database().db);
  const get = (path: string) => as(admin, request(app()).get(path));
  const list = (query: Record<string, unknown>) =>
    get('/api/admin/products').query(Object.fromEntries(Object.entries(query).map(([k, v]) => [k, JSON.stringify(v)])));

  beforeAll(async () => {
    const db = database().db;
    admin = await signedIn(db, ['admin']);
    for (const [i, name] of ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo'].entries()) {
      await createProduct(db, {
        name: `${name} Course`,
        quantityAvailable: i * 10 - 1,
        status: i === 4 ? 'archived' : 'active',
      });
    }
  });

  it('pages and sorts, with the total in Content-Range', async () => {
    const response = await list({ sort: ['name', 'ASC'], range: [1, 2] });
    expect(response.status).toBe(200);
    expect(response.headers['content-range']).toBe('products 1-2/5');
    expect(response.body.map((p: { name: string }) => p.name)).toEqual(['Bravo Course', 'Charlie Course']);
  });

  it('filters by field, by id list, by number bounds and by text', async () => {
    const archived = await list({ filter: { status: 'archived' } });
    expect(archived.body.map((p: { name: string }) => p.name)).toEqual(['Echo Course']);
    expect(archived.headers['content-range']).toBe('products 0-0/1');

    const ids = archived.body.map((p: { id: string }) => p.id);
    expect((await list({ filter: { id: ids } })).body).toHaveLength(1);

    const bounded = await list({
      filter: { quantityAvailable_gte: 9, quantityAvailable_lte: 29 },
      sort: ['name', 'ASC'],
    });
    expect(bounded.body.map((p: { name: string }) => p.name)).toEqual([
      'Bravo Course',
      'Charlie Course',
      'Delta Course',
    ]);

    const searched = await list({ filter: { q: 'delt' } });
    expect(searched.body.map((p: { name: string }) => p.name)).toEqual(['Delta Course']);
    const literal = await list({ filter: { q: '%' } });
    expect(literal.headers['content-range']).toBe('products */0');
  });

  it('answers one record by id, 404 for an unknown one and 400 for a malformed one', async () => {
    const [first] = (await list({ range: [0, 0] })).body;
    const one = await get(`/api/admin/products/${first.id}`);
    expect(one.status).toBe(200);
    expect(one.body.name).toBe(first.name);
    const missing = await get('/api/admin/products/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not-found');
    const malformed = await get('/api/admin/products/42');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: 'validation-failed', errors: { id: 'must be an id' } });
  });

  it('refuses unknown fields and oversized pages with a 400 that says why', async () => {
    const badSort = await list({ sort: ['secret', 'ASC'] });
    expect(badSort.status).toBe(400);
    expect(badSort.body).toMatchObject({
      code: 'validation-failed',
      errors: { sort: expect.stringContaining('secret') },
    });
    expect((await list({ filter: { email: 'x' } })).status).toBe(400);
    expect((await list({ range: [0, 10_000] })).status).toBe(400);
    const notJson = await get('/api/admin/products?filter={oops');
    expect(notJson.status).toBe(400);
    expect(notJson.body.errors).toEqual({ filter: 'is not valid JSON' });
  });

  it('is open to staff only: 401 signed out, 403 for a learner', async () => {
    expect((await request(app()).get('/api/admin/products')).status).toBe(401);
    const learner = await signedIn(database().db, ['learner']);
    const refused = await as(learner, request(app()).get('/api/admin/products'));
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('forbidden');
    const finance = await signedIn(database().db, ['finance']);
    expect((await as(finance, request(app()).get('/api/admin/products'))).status).toBe(200);
  });
});
