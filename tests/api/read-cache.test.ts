import request from 'supertest';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import type { ContentResource, Product } from '../support/models';
import { createCourse, createProduct, createPurchase } from '../../seeds/factories';
import { testConfig, testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { manualClock } from '../support/clock';
import { useTestDatabase } from '../support/db';

/**
 * The storefront's read caches (READ_CACHE_MS): the catalog, course structure and lesson bodies are read from the
 * database once per lifetime; this process's console writes show at once; what belongs to the learner (purchases,
 * progress) and what checkout charges are always read fresh.
 */
describe('read caches', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const appWith = (ttl: string) => createApp(testDeps(db(), { config: testConfig({ READ_CACHE_MS: ttl }) })).callback();
  let app: ReturnType<typeof appWith>;
  let admin: SignedIn;
  let learner: SignedIn;
  let product: Product;
  let lessons: ContentResource[];
  let slug: string;
  const queries: string[] = [];

  beforeAll(async () => {
    app = appWith('60000');
    admin = await signedIn(db(), ['admin']);
    learner = await signedIn(db(), ['learner']);
    product = await createProduct(db(), { name: 'Cached Course', unitAmount: 10000 });
    let course: ContentResource;
    ({ course, lessons } = await createCourse(
      db(),
      {
        title: 'Cached Course',
        modules: [
          {
            title: 'M',
            sections: [
              {
                title: 'S',
                lessons: [
                  { title: 'L1', body: '<p>first</p>' },
                  { title: 'L2', body: '<p>second</p>' },
                ],
              },
            ],
          },
        ],
      },
      { products: [product] },
    ));
    slug = course.fields.slug!;
    await createPurchase(db(), { user: learner.user, product });
    db().on('query', (q: { sql: string }) => queries.push(q.sql));
  });
  beforeEach(() => {
    queries.length = 0;
  });

  const storeGet = (path: string, who?: SignedIn) => as(who, request(app).get(`/api/store${path}`));
  const adminSend = (method: 'post' | 'put', path: string, body: object) =>
    as(admin, request(app)[method](`/api/admin/${path}`)).send(body);
  const listed = async () =>
    ((await storeGet('/products')).body.data as { id: string; name: string; price: { unitAmount: number } }[]).find(
      (p) => p.id === product.id,
    )!;
  const touching = (table: string) => queries.filter((sql) => new RegExp(`\\b${table}\\b`).test(sql));

  it('reads the catalog once, and shows a console edit at once', async () => {
    expect((await listed()).name).toBe('Cached Course');
    queries.length = 0;
    expect((await listed()).name).toBe('Cached Course');
    expect(touching('products')).toEqual([]);

    expect((await adminSend('put', `products/${product.id}`, { name: 'Renamed Course' })).status).toBe(200);
    expect((await listed()).name).toBe('Renamed Course');
  });

  it('shows another process’s change within its time to live, not before', async () => {
    const clock = manualClock();
    const other = createApp(testDeps(db(), { clock, config: testConfig({ READ_CACHE_MS: '1000' }) })).callback();
    const nameIn = async () =>
      ((await request(other).get('/api/store/products')).body.data as { id: string; name: string }[]).find(
        (p) => p.id === product.id,
      )!.name;
    const before = await nameIn();
    await db()('products').where({ id: product.id }).update({ name: 'Changed Elsewhere' });
    clock.advance(999);
    expect(await nameIn()).toBe(before);
    clock.advance(2);
    expect(await nameIn()).toBe('Changed Elsewhere');
    expect((await adminSend('put', `products/${product.id}`, { name: 'Cached Course Again' })).status).toBe(200);
  });

  it('opens a cached lesson for a signed-in learner with one query: the learner’s own rows', async () => {
    const path = `/courses/${slug}/lessons/${lessons[1]!.id}`;
    expect((await storeGet(path, learner)).body).toMatchObject({ open: true, body: '<p>second</p>' });
    queries.length = 0;
    expect((await storeGet(path, learner)).body).toMatchObject({ open: true, body: '<p>second</p>' });
    expect(queries).toHaveLength(1);
    expect(touching('purchases')).toHaveLength(1);
  });

  it('ends a signed-out session at once, and a session changed by the console at once', async () => {
    const someone = await signedIn(db(), ['learner']);
    const me = () => storeGet('/me', someone);
    expect((await me()).status).toBe(200);
    queries.length = 0;
    expect((await me()).status).toBe(200);
    expect(touching('sessions')).toEqual([]); // held in the cache
    const promoted = await as(admin, request(app).put(`/api/admin/users/${someone.user.id}`)).send({
      roles: ['learner', 'support'],
    });
    expect(promoted.status).toBe(200);
    expect((await as(someone, request(app).get('/api/admin/users')).query({ range: '[0,0]' })).status).toBe(200);
    const out = await as(someone, request(app).post('/api/store/auth/sign-out'));
    expect(out.status).toBe(204);
    expect((await me()).status).toBe(401);
  });

  it('ends a session deleted or expired elsewhere within the cache’s lifetime', async () => {
    const clock = manualClock();
    const other = createApp(testDeps(db(), { clock, config: testConfig({ READ_CACHE_MS: '1000' }) })).callback();
    const someone = await signedIn(db(), ['learner']);
    const me = () => as(someone, request(other).get('/api/store/me'));
    expect((await me()).status).toBe(200);
    await db()('sessions').where({ userId: someone.user.id }).delete(); // signed out through another process
    expect((await me()).status).toBe(200);
    clock.advance(1001);
    expect((await me()).status).toBe(401);

    const later = await signedIn(db(), ['learner']);
    const session = await db()('sessions').where({ userId: later.user.id }).first('expires');
    expect((await as(later, request(other).get('/api/store/me'))).status).toBe(200);
    clock.set(new Date(new Date(session.expires).getTime() + 1)); // expired while cached
    expect((await as(later, request(other).get('/api/store/me'))).status).toBe(401);
  });

  it('locks the lesson the moment the purchase is refunded: access is never cached', async () => {
    const path = `/courses/${slug}/lessons/${lessons[1]!.id}`;
    expect((await storeGet(path, learner)).body.open).toBe(true);
    await db()('purchases').where({ userId: learner.user.id, productId: product.id }).update({ status: 'Refunded' });
    expect((await storeGet(path, learner)).body).toMatchObject({
      open: false,
      body: null,
      lock: { reason: 'ended', status: 'Refunded' },
    });
    await db()('purchases').where({ userId: learner.user.id, productId: product.id }).update({ status: 'Valid' });
  });

  it('shows a lesson edited in the console at once', async () => {
    const lesson = lessons[1]!;
    const path = `/courses/${slug}/lessons/${lesson.id}`;
    expect((await storeGet(path, learner)).body.body).toBe('<p>second</p>');
    const edited = await adminSend('put', `content-resources/${lesson.id}`, {
      fields: { ...lesson.fields, body: '<p>second, revised</p>' },
    });
    expect(edited.status).toBe(200);
    expect((await storeGet(path, learner)).body.body).toBe('<p>second, revised</p>');
  });

  it('previews a price from the cache, but checkout charges what the database holds now', async () => {
    const preview = async () => (await storeGet(`/products/${product.id}/quote`)).body.quote.finalPrice as number;
    expect(await preview()).toBe(10000);
    await db()('prices').where({ productId: product.id, status: 'active' }).update({ unitAmount: 12000 }); // another process
    expect(await preview()).toBe(10000);
    const created = await request(app)
      .post('/api/store/checkout')
      .send({ productId: product.id, email: 'buyer@example.com' });
    expect(created.status).toBe(201);
    expect((await db()('checkouts').where({ id: created.body.checkoutId }).first('amountTotal')).amountTotal).toBe(
      12000,
    );

    expect((await adminSend('post', 'prices', { productId: product.id, unitAmount: 15000 })).status).toBe(201);
    expect(await preview()).toBe(15000);
    expect((await listed()).price.unitAmount).toBe(15000);
  });
});
