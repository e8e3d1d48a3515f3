import type { Db } from '../../api/src/db/connection';

export interface DatasetSize {
  users: number;
  products: number;
  purchases: number;
  lessonsPerCourse: number;
  progressRows: number;
}

export const FULL_SIZE: DatasetSize = {
  users: 100_000,
  products: 200,
  purchases: 1_000_000,
  lessonsPerCourse: 20,
  progressRows: 1_000_000,
};

export interface Dataset {
  productIds: string[];
  courseSlug: string;
  lessonIds: string[];
  /** A learner who owns the course's product. */
  learnerId: string;
  accountId: string;
}

/**
 * The benchmark's data, written with set-based SQL (generate_series) so a million rows take seconds: users,
 * products with prices, one course of lessons linked to every product, purchases with their charges spread over a
 * year, and lesson progress.
 */
export async function generateDataset(db: Db, size: DatasetSize): Promise<Dataset> {
  await db.raw(
    `INSERT INTO users (email, name) SELECT 'learner' || i || '@bench.example', 'Learner ' || i FROM generate_series(1, ?) AS i`,
    [size.users],
  );
  await db.raw(
    `INSERT INTO products (name, slug, status, quantity_available) SELECT 'Course ' || i, 'course-' || i, 'active', -1 FROM generate_series(1, ?) AS i`,
    [size.products],
  );
  await db.raw(
    `INSERT INTO prices (product_id, unit_amount, currency, status, nickname) SELECT id, 1000 + (random() * 20000)::int, 'usd', 'active', name FROM products`,
  );
  // The historical sales sit under their own account; new checkouts go through the Stripe stand-in's.
  const [account] = await db('merchantAccounts')
    .insert({ label: 'history', identifier: 'acct_history' })
    .returning('id');
  await db.raw(
    `INSERT INTO merchant_products (merchant_account_id, identifier, product_id) SELECT ?, 'prod_' || id, id FROM products`,
    [account.id],
  );
  await db.raw(`CREATE TEMP TABLE bench_users AS SELECT id, row_number() OVER (ORDER BY email) AS n FROM users`);
  await db.raw(
    `CREATE TEMP TABLE bench_products AS SELECT p.id, mp.id AS merchant_product_id, row_number() OVER (ORDER BY p.slug) AS n FROM products p JOIN merchant_products mp ON mp.product_id = p.id`,
  );
  await db.raw(`CREATE INDEX ON bench_users (n)`);
  await db.raw(`CREATE INDEX ON bench_products (n)`);

  // Charges and purchases over the last year, in batches so no single statement holds a million-row sort.
  const batch = 250_000;
  for (let from = 1; from <= size.purchases; from += batch) {
    const to = Math.min(size.purchases, from + batch - 1);
    await db.raw(
      `INSERT INTO merchant_charges (merchant_account_id, identifier, amount, fee, net, currency, user_id, merchant_product_id, created_at)
       SELECT ?, 'ch_bench_' || i, 4900, 172, 4728, 'usd', u.id, p.merchant_product_id, now() - ((i % 525600) || ' minutes')::interval
         FROM generate_series(?::int, ?::int) AS i
         JOIN bench_users u ON u.n = 1 + i % ?
         JOIN bench_products p ON p.n = 1 + (i / 7) % ?`,
      [account.id, from, to, size.users, size.products],
    );
  }
  await db.raw(
    `INSERT INTO purchases (user_id, product_id, status, total_amount, currency, country, merchant_charge_id, created_at)
     SELECT ch.user_id, mp.product_id, CASE WHEN ch.identifier LIKE '%7' THEN 'Refunded' ELSE 'Valid' END, ch.amount, 'usd', 'US', ch.id, ch.created_at
       FROM merchant_charges ch JOIN merchant_products mp ON mp.id = ch.merchant_product_id`,
  );

  // One course of lessons, granted by every product.
  const [course] = await db('contentResources')
    .insert({
      type: 'course',
      fields: JSON.stringify({
        title: 'Benchmark Course',
        slug: 'benchmark-course',
        state: 'published',
        visibility: 'public',
      }),
    })
    .returning('id');
  const [module] = await db('contentResources')
    .insert({ type: 'module', fields: JSON.stringify({ title: 'Module', slug: 'bench-module', state: 'published' }) })
    .returning('id');
  await db('contentResourceResources').insert({ resourceOfId: course.id, resourceId: module.id, position: 0 });
  const lessons = await db('contentResources')
    .insert(
      Array.from({ length: size.lessonsPerCourse }, (_, i) => ({
        type: 'lesson',
        fields: JSON.stringify({
          title: `Lesson ${i + 1}`,
          slug: `bench-lesson-${i + 1}`,
          state: 'published',
          body: `<h2>Lesson ${i + 1}</h2><p>${'Text of the lesson. '.repeat(40)}</p>`,
        }),
      })),
    )
    .returning('id');
  await db('contentResourceResources').insert(
    lessons.map((l: { id: string }, position: number) => ({ resourceOfId: module.id, resourceId: l.id, position })),
  );
  await db.raw(
    `INSERT INTO product_content_resources (product_id, resource_id, position) SELECT id, ?, 0 FROM products`,
    [course.id],
  );

  // Progress: each learner has completed some lessons (users × lessons, up to the size asked).
  await db.raw(
    `CREATE TEMP TABLE bench_lessons AS SELECT id, row_number() OVER () AS n FROM content_resources WHERE type = 'lesson'`,
  );
  const perUser = Math.ceil(size.progressRows / size.users);
  await db.raw(
    `INSERT INTO lesson_progress (user_id, lesson_id, module_id, completed_at)
     SELECT u.id, l.id, ?, now() - ((u.n + l.n) || ' minutes')::interval
       FROM bench_users u JOIN bench_lessons l ON l.n <= ?
      LIMIT ?`,
    [module.id, perUser, size.progressRows],
  );
  // As a live database stands after autovacuum: statistics, and visibility maps that let counts use index-only scans.
  await db.raw('VACUUM ANALYZE');

  const learner = await db('purchases').where({ status: 'Valid' }).first('userId');
  const productIds = (await db('products').orderBy('slug').select('id')).map((p: { id: string }) => p.id);
  return {
    productIds,
    courseSlug: 'benchmark-course',
    lessonIds: lessons.map((l: { id: string }) => l.id),
    learnerId: learner.userId,
    accountId: account.id,
  };
}
