import request from 'supertest';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import pg from 'pg';
import { createDb, type Db } from '../../api/src/db/connection';
import type { Product } from '../support/models';
import { createCoupon, createCourse, createProduct, createPurchase } from '../../seeds/factories';
import { testApp } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { startPgBouncer, type PgBouncer } from '../support/pgbouncer';

// Managed PostgreSQL usually sits behind PgBouncer in transaction mode: each transaction may run on another server
// connection, and several clients share one. One server connection here makes every collision certain.
describe('behind PgBouncer in transaction mode (DB_PGBOUNCER=true)', () => {
  const database = useTestDatabase();
  let bouncer: PgBouncer;
  let product: Product;
  let slug: string;
  let lessonIds: string[];
  let learners: SignedIn[];

  beforeAll(async () => {
    bouncer = await startPgBouncer(inject('databaseServerUrl'), { serverConnections: 1 });
    const db = database().db;
    product = await createProduct(db, { name: 'Pooled Course' });
    await createCoupon(db, { code: 'POOLED', percentageDiscount: 0.2, restrictedToProductId: product.id });
    const lesson = (title: string) => ({ title, body: `<p>${title}</p>` });
    const { course, lessons } = await createCourse(
      db,
      {
        title: 'Pooled Course',
        modules: [{ title: 'One', sections: [{ title: 'A', lessons: [lesson('L1'), lesson('L2'), lesson('L3')] }] }],
      },
      { products: [product] },
    );
    slug = course.fields.slug!;
    lessonIds = lessons.map((l) => l.id);
    learners = [];
    for (let i = 0; i < 6; i++) {
      const learner = await signedIn(db);
      await createPurchase(db, { user: learner.user, product });
      learners.push(learner);
    }
  });

  afterAll(async () => {
    await bouncer?.stop();
  });

  /** The requests that run the named statements: sessions, quotes with a code, lesson views, progress. */
  function burst(app: ReturnType<typeof testApp>) {
    return Promise.all(
      learners.flatMap((learner, i) => [
        as(learner, request(app).get('/api/store/me')),
        as(learner, request(app).get(`/api/store/products/${product.id}/quote`).query({ coupon: 'POOLED' })),
        as(learner, request(app).get(`/api/store/courses/${slug}/lessons/${lessonIds[i % 3]}`)),
        as(learner, request(app).put(`/api/store/progress/lessons/${lessonIds[i % 3]}`)).send({}),
      ]),
    );
  }

  async function withPool<T>(pgbouncer: boolean, work: (db: Db) => Promise<T>): Promise<T> {
    const db = createDb(bouncer.through(database().url), { max: 4, pgbouncer });
    try {
      return await work(db);
    } finally {
      await db.destroy();
    }
  }

  it('is the real thing: two clients naming the same statement collide on the shared server connection', async () => {
    const clients = [0, 1].map(() => new pg.Client({ connectionString: bouncer.through(database().url) }));
    try {
      for (const client of clients) await client.connect();
      await clients[0]!.query({ name: 'probe', text: 'select 1' });
      await expect(clients[1]!.query({ name: 'probe', text: 'select 1' })).rejects.toMatchObject({ code: '42P05' });
    } finally {
      for (const client of clients) await client.end();
    }
  });

  it('answers sessions, quotes, lessons and progress with no named statement, many clients at once', async () => {
    await withPool(true, async (db) => {
      const named: string[] = [];
      db.on('query', (query: { options?: { name?: string } }) => query.options?.name && named.push(query.options.name));
      const answers = await burst(testApp(db));
      expect(answers.map((a) => a.status).filter((s) => s >= 300)).toEqual([]);
      expect(named).toEqual([]);
      expect(answers[1]!.body.quote).toMatchObject({ discount: { kind: 'coupon' } });
    });
    const progress = await database().db('lessonProgress').whereIn('lessonId', lessonIds).count({ n: '*' });
    expect(Number(progress[0]!.n)).toBe(learners.length);
  });

  it('fails the same burst with named statements on (why the setting exists)', async () => {
    await withPool(false, async (db) => {
      const answers = await burst(testApp(db));
      expect(answers.filter((a) => a.status === 500).length).toBeGreaterThan(0);
    });
  });
});
