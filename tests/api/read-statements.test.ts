import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import {
  createCoupon,
  createCourse,
  createProduct,
  createPurchase,
  createRevenueSplit,
  createUser,
} from '../../seeds/factories';
import { testConfig, testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import type { ContentResource, Product } from '../support/models';

/**
 * The storefront's reads and the console's list with the read caches off (a replica after a deploy): each request
 * sends a fixed number of SQL statements however large the catalog is, so a lookup per product, course or row (an
 * N+1) fails here.
 */
describe('statements per read, caches off', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let learner: SignedIn;
  let admin: SignedIn;
  let first: { product: Product; course: ContentResource; lessons: ContentResource[] };
  let couponCode: string;
  let made = 0;
  const sent: string[] = [];

  /** Products each granting a course of two modules, taught by a named owner and a contributor, some of them bought. */
  async function addProducts(count: number) {
    for (let i = 0; i < count; i++, made++) {
      const product = await createProduct(db(), { name: `Catalog Course ${made}`, unitAmount: 5000 + made });
      const owner = await createUser(db(), { name: `Teacher ${made}` });
      const helper = await createUser(db(), { name: `Helper ${made}` });
      await createRevenueSplit(db(), { productId: product.id, userId: owner.id, type: 'owner', percent: 0.6 });
      await createRevenueSplit(db(), { productId: product.id, userId: helper.id, type: 'contributor', percent: 0.4 });
      const { course, lessons } = await createCourse(
        db(),
        {
          title: `Catalog Course ${made}`,
          modules: [1, 2].map((m) => ({
            title: `Module ${m}`,
            sections: [
              {
                title: 'Section',
                lessons: [
                  { title: `Lesson ${m}a`, body: '<p>a</p>', free: m === 1 },
                  { title: `Lesson ${m}b`, body: '<p>b</p>' },
                ],
              },
            ],
          })),
        },
        { products: [product] },
      );
      await createPurchase(db(), { user: learner.user, product, totalAmount: 5000 });
      first ??= { product, course, lessons };
    }
  }

  /** The statements one request sends, its answer checked; after one request before it (a session's first is noted). */
  async function statementsOf(path: string, auth?: SignedIn): Promise<number> {
    expect((await as(auth, request(app).get(path))).status, path).toBe(200);
    sent.length = 0;
    expect((await as(auth, request(app).get(path))).status, path).toBe(200);
    return sent.length;
  }

  const reads = () => ({
    'product list': () => statementsOf('/api/store/products'),
    'product page': () => statementsOf(`/api/store/products/${first.product.slug}`),
    'quote with a coupon': () => statementsOf(`/api/store/products/${first.product.id}/quote?coupon=${couponCode}`),
    'lesson page data, signed in': () =>
      statementsOf(`/api/store/courses/${first.course.fields.slug}/lessons/${first.lessons[1]!.id}`, learner),
    'console purchases list': () =>
      statementsOf(
        `/api/admin/purchases?sort=${encodeURIComponent('["createdAt","DESC"]')}&range=${encodeURIComponent('[0,24]')}` +
          `&filter=${encodeURIComponent(JSON.stringify({ productId: first.product.id }))}`,
        admin,
      ),
  });

  beforeAll(async () => {
    app = createApp(testDeps(db(), { config: testConfig({ READ_CACHE_MS: '0' }) })).callback();
    learner = await signedIn(db(), ['learner']);
    admin = await signedIn(db(), ['admin']);
    couponCode = (await createCoupon(db(), { percentageDiscount: 0.2 })).code!;
    db().on('query', (q: { sql: string }) => sent.push(q.sql));
  });

  it('sends as many statements for 50 products as for 5, and few', async () => {
    await addProducts(5);
    const small: Record<string, number> = {};
    for (const [name, count] of Object.entries(reads())) small[name] = await count();
    await addProducts(45);
    const large: Record<string, number> = {};
    for (const [name, count] of Object.entries(reads())) large[name] = await count();
    expect(large).toEqual(small);
    // Few, whatever the catalog's size (a query per product would be hundreds here); a little room for a new rule.
    const bounds = {
      'product list': 10,
      'product page': 15,
      'quote with a coupon': 13,
      'lesson page data, signed in': 9,
      'console purchases list': 3,
    };
    for (const [name, bound] of Object.entries(bounds)) expect(large[name], name).toBeLessThanOrEqual(bound);
  });

  it("reads the school's tax setup once for a quote, not again for its calculation", async () => {
    await statementsOf(`/api/store/products/${first.product.id}/quote?coupon=${couponCode}&billingCountry=DE`);
    const reads = (table: string) => sent.filter((sql) => sql.includes(`from "${table}"`)).length;
    expect([reads('school_settings'), reads('tax_registrations'), reads('tax_rates')]).toEqual([1, 1, 1]);
  });
});
