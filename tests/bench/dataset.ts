import type { Db } from '../../api/src/db/connection';

interface DatasetSize {
  users: number;
  products: number;
  /** Purchases, each with its charge and its split lines (sale, and refund or dispute lines for some). */
  purchases: number;
  lessonsPerCourse: number;
  progressRows: number;
  /** Staff actions in the audit log, about people, purchases and products. */
  auditEntries: number;
}

const FULL_SIZE: DatasetSize = {
  users: 100_000,
  products: 200,
  purchases: 1_000_000,
  lessonsPerCourse: 20,
  progressRows: 1_000_000,
  auditEntries: 400_000,
};

/** FULL_SIZE times a factor; products and lessons stay as they are (a catalogue does not grow with its sales). */
export function scaledSize(scale: number): DatasetSize {
  const times = (n: number) => Math.max(1, Math.round(n * scale));
  return {
    ...FULL_SIZE,
    users: times(FULL_SIZE.users),
    purchases: times(FULL_SIZE.purchases),
    progressRows: times(FULL_SIZE.progressRows),
    auditEntries: times(FULL_SIZE.auditEntries),
  };
}

export interface Dataset {
  productIds: string[];
  courseSlug: string;
  lessonIds: string[];
  /** A learner who owns the course's product. */
  learnerId: string;
  accountId: string;
  /** Someone with a long history: purchases, refunds, purchases given and received, emails, notes, staff actions. */
  richPersonId: string;
  /** A staff member who did thousands of the audit log's actions. */
  heavyStaffId: string;
  /** A coupon any product's quote accepts. */
  couponCode: string;
}

const STAFF = 200;
const AUTHORS = 25;
const BATCH = 100_000;
/** The school keeps 30 % of a sale's gross; the course's author gets the rest of the net (the fee comes off theirs). */
const PLATFORM_SHARE = 0.3;

/**
 * The benchmark's data, written with set-based SQL (generate_series) in batches, so a million purchases take a
 * minute and no statement holds a million-row sort. Rows go through the tables' triggers as the product's writes do
 * (rollups included). Called again with a larger size on the same database, it adds the difference: the same data
 * grown, so a measurement at a tenth of the size can be compared with one at the full size.
 *
 * What it writes: users, staff and authors; products with prices and revenue splits (school and author), one course
 * of lessons linked to every product; purchases with their charges spread over the last year, 10 % in euros; the
 * split ledger as fulfilment writes it (a sale's school and author lines, full refunds for one in ten with their
 * refund and lines, lost disputes for one in a hundred); lesson progress; the audit log's staff actions; coupons;
 * one person with a rich timeline and one staff member behind thousands of actions.
 */
export async function generateDataset(db: Db, size: DatasetSize): Promise<Dataset> {
  await db.raw(`CREATE TABLE IF NOT EXISTS bench_sizes (what text PRIMARY KEY, n int NOT NULL)`);
  const had = new Map(
    ((await db.raw(`SELECT what, n FROM bench_sizes`)).rows as { what: string; n: number }[]).map((r) => [r.what, r.n]),
  );
  if (!had.has('products')) await createCatalog(db, size);
  const account = await db('merchantAccounts').where({ identifier: 'acct_history' }).first('id');

  await addUsers(db, had.get('users') ?? 0, size.users);
  await addPurchases(db, account.id, had.get('purchases') ?? 0, size.purchases, size.users, size.products);
  await addProgress(db, had.get('progressRows') ?? 0, size.progressRows, size.users, size.lessonsPerCourse);
  await addAuditEntries(db, had.get('auditEntries') ?? 0, size.auditEntries, size.users, size.purchases);
  if (!had.has('richPerson')) await createRichPerson(db, account.id);
  for (const [what, n] of Object.entries({ ...size, richPerson: 1 }))
    await db.raw(`INSERT INTO bench_sizes VALUES (?, ?) ON CONFLICT (what) DO UPDATE SET n = excluded.n`, [what, n]);

  // As a live database stands after autovacuum: statistics, and visibility maps that let counts use index-only scans.
  await db.raw('VACUUM ANALYZE');

  const learner = await db('purchases').where({ status: 'Valid' }).first('userId');
  const productIds = (await db('products').orderBy('slug').select('id')).map((p: { id: string }) => p.id);
  const lessons = await db('benchLessons').orderBy('n').select('id');
  const rich = await db('users').where({ email: 'rich@bench.example' }).first('id');
  const heavy = await db('users').where({ email: 'staff1@bench.example' }).first('id');
  return {
    productIds,
    courseSlug: 'benchmark-course',
    lessonIds: lessons.map((l: { id: string }) => l.id),
    learnerId: learner.userId,
    accountId: account.id,
    richPersonId: rich.id,
    heavyStaffId: heavy.id,
    couponCode: 'BENCH20',
  };
}

/** Products, prices, splits, staff, authors, the course and its lessons, coupons: written once. */
async function createCatalog(db: Db, size: DatasetSize): Promise<void> {
  // Numbered lookups the batches join on (ordinary tables: a pool hands each statement any connection).
  await db.raw(`CREATE UNLOGGED TABLE bench_users (n int PRIMARY KEY, id uuid NOT NULL)`);
  await db.raw(
    `CREATE UNLOGGED TABLE bench_products (n int PRIMARY KEY, id uuid NOT NULL, merchant_product_id uuid NOT NULL, author_id uuid NOT NULL)`,
  );
  await db.raw(`CREATE UNLOGGED TABLE bench_staff (n int PRIMARY KEY, id uuid NOT NULL, email text NOT NULL)`);
  await db.raw(`CREATE UNLOGGED TABLE bench_lessons (n int PRIMARY KEY, id uuid NOT NULL)`);

  await db.raw(
    `WITH s AS (INSERT INTO users (email, name, roles)
                SELECT 'staff' || i || '@bench.example', 'Staff ' || i,
                       CASE i % 3 WHEN 0 THEN '{admin}' WHEN 1 THEN '{support}' ELSE '{finance}' END::text[]
                  FROM generate_series(1, ?) AS i RETURNING id, email)
     INSERT INTO bench_staff SELECT substring(email FROM '^staff(\\d+)@')::int, id, email FROM s`,
    [STAFF],
  );
  await db.raw(
    `INSERT INTO users (email, name, roles) SELECT 'author' || i || '@bench.example', 'Author ' || i, '{contributor}'
       FROM generate_series(1, ?) AS i`,
    [AUTHORS],
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
  await db.raw(
    `INSERT INTO bench_products
     SELECT substring(p.slug FROM '^course-(\\d+)$')::int, p.id, mp.id, a.id
       FROM products p JOIN merchant_products mp ON mp.product_id = p.id
       JOIN users a ON a.email = 'author' || (1 + substring(p.slug FROM '^course-(\\d+)$')::int % ?) || '@bench.example'`,
    [AUTHORS],
  );
  await db.raw(
    `INSERT INTO product_revenue_splits (type, product_id, percent, user_id)
     SELECT 'platform', id, ?::numeric, NULL FROM bench_products
     UNION ALL SELECT 'owner', id, ?::numeric, author_id FROM bench_products`,
    [PLATFORM_SHARE, 1 - PLATFORM_SHARE],
  );

  // Coupons: the one the quote names (every product, no limit, no expiry) and a batch of single-use codes.
  await db('coupons').insert({ code: 'BENCH20', percentageDiscount: 0.2, maxUses: -1, status: 'active' });
  await db.raw(
    `INSERT INTO coupons (code, percentage_discount, max_uses, used_count, status, restricted_to_product_id, expires)
     SELECT 'BATCH' || lpad(i::text, 5, '0'), 0.1 + (i % 5) * 0.1, 1, (i % 3 = 0)::int, 'active',
            CASE WHEN i % 4 = 0 THEN (SELECT id FROM bench_products WHERE n = 1 + i % ?) END,
            CASE WHEN i % 2 = 0 THEN now() + interval '90 days' END
       FROM generate_series(1, 2000) AS i`,
    [size.products],
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
  await db('benchLessons').insert(lessons.map((l: { id: string }, i: number) => ({ n: i + 1, id: l.id })));
  await db.raw(
    `INSERT INTO product_content_resources (product_id, resource_id, position) SELECT id, ?, 0 FROM products`,
    [course.id],
  );
  await db.raw(`CREATE UNLOGGED TABLE bench_module (id uuid NOT NULL)`);
  await db('benchModule').insert({ id: module.id });
}

/** Learners number `from + 1` to `to`. */
async function addUsers(db: Db, from: number, to: number): Promise<void> {
  for (let start = from + 1; start <= to; start += BATCH) {
    const end = Math.min(to, start + BATCH - 1);
    await db.raw(
      `WITH u AS (INSERT INTO users (email, name, created_at)
                  SELECT 'learner' || i || '@bench.example', 'Learner ' || i, now() - ((i % 730) || ' days')::interval
                    FROM generate_series(?::int, ?::int) AS i RETURNING id, email)
       INSERT INTO bench_users SELECT substring(email FROM '^learner(\\d+)@')::int, id FROM u`,
      [start, end],
    );
  }
}

/**
 * Charges `from + 1` to `to` with their purchases and split lines, one statement a batch. Charge i is paid by
 * learner 1 + i % users for product 1 + (i / 7) % products, at a minute of the last year that i scatters (a
 * multiplier prime to the year's minutes), so a small dataset spans the year as a large one does. One in ten
 * is refunded in full a day later, one in a hundred lost to a dispute; each writes its money row and its ledger lines
 * spread over the sale's lines as the ledger does (the remainder of rounding to the larger line, the author's).
 */
async function addPurchases(
  db: Db,
  accountId: string,
  from: number,
  to: number,
  users: number,
  products: number,
): Promise<void> {
  for (let start = from + 1; start <= to; start += BATCH) {
    const end = Math.min(to, start + BATCH - 1);
    await db.raw(
      `WITH src AS MATERIALIZED (
         SELECT i, gen_random_uuid() AS charge_id, u.id AS user_id, p.merchant_product_id, p.id AS product_id, p.author_id,
                1900 + (i % 5) * 1000 AS amount, CASE WHEN i % 10 = 3 THEN 'eur' ELSE 'usd' END AS currency,
                now() - ((i::bigint * 7919 % 525600) || ' minutes')::interval AS at,
                CASE WHEN i % 10 = 7 THEN 'refund' WHEN i % 100 = 43 THEN 'dispute' END AS trouble
           FROM generate_series(?::int, ?::int) AS i
           JOIN bench_users u ON u.n = 1 + i % ?
           JOIN bench_products p ON p.n = 1 + (i / 7) % ?),
       money AS (
         SELECT src.*, round(amount * 0.029)::int + 30 AS fee,
                least(amount - (round(amount * 0.029)::int + 30), round(amount * ?::numeric)::int) AS platform
           FROM src),
       lines AS (
         SELECT money.*, amount - fee - platform AS author,
                -floor(amount::numeric * platform / (amount - fee))::int AS platform_back,
                -amount + floor(amount::numeric * platform / (amount - fee))::int AS author_back
           FROM money),
       ch AS (
         INSERT INTO merchant_charges (id, merchant_account_id, identifier, amount, fee, net, refund_amount, currency,
                                       user_id, merchant_product_id, created_at)
         SELECT charge_id, ?, 'ch_bench_' || i, amount, fee, amount - fee,
                CASE WHEN trouble = 'refund' THEN amount ELSE 0 END, currency, user_id, merchant_product_id, at
           FROM lines RETURNING id),
       charged AS MATERIALIZED (SELECT * FROM lines),
       bought AS (
         INSERT INTO purchases (user_id, product_id, status, total_amount, currency, country, merchant_charge_id, created_at)
         SELECT user_id, product_id,
                CASE trouble WHEN 'refund' THEN 'Refunded' WHEN 'dispute' THEN 'Disputed' ELSE 'Valid' END,
                amount, currency, CASE WHEN currency = 'eur' THEN 'DE' ELSE 'US' END, charge_id, at
           FROM charged RETURNING id),
       refunded AS (
         INSERT INTO merchant_refunds (merchant_account_id, identifier, status, merchant_charge_id, amount,
                                       idempotency_key, reason_code, created_at)
         SELECT ?, 're_bench_' || i, 'succeeded', charge_id, amount, 'bench-refund-' || i, 'customer-request',
                least(now(), at + interval '1 day')
           FROM charged WHERE trouble = 'refund' RETURNING id),
       disputed AS (
         INSERT INTO merchant_disputes (merchant_account_id, identifier, merchant_charge_id, amount, reason, status,
                                        created_at, closed_at)
         SELECT ?, 'dp_bench_' || i, charge_id, amount, 'fraudulent', 'lost', least(now(), at + interval '3 days'),
                least(now(), at + interval '20 days')
           FROM charged WHERE trouble = 'dispute' RETURNING id)
       INSERT INTO split_lines (merchant_charge_id, product_id, recipient_type, user_id, kind, amount, currency,
                                reference, created_at)
       SELECT charge_id, product_id, l.recipient_type, l.user_id, l.kind, l.amount, currency, l.reference, l.at
         FROM charged CROSS JOIN LATERAL (VALUES
                ('platform', NULL::uuid, 'sale', platform, NULL, at),
                ('owner', author_id, 'sale', author, NULL, at),
                ('platform', NULL::uuid, trouble, platform_back, trouble || '_bench_' || i,
                 least(now(), at + CASE trouble WHEN 'refund' THEN interval '1 day' ELSE interval '20 days' END)),
                ('owner', author_id, trouble, author_back, trouble || '_bench_' || i,
                 least(now(), at + CASE trouble WHEN 'refund' THEN interval '1 day' ELSE interval '20 days' END))
              ) AS l(recipient_type, user_id, kind, amount, reference, at)
        WHERE l.kind IS NOT NULL AND (l.kind = 'sale' OR l.amount <> 0)`,
      [start, end, users, products, PLATFORM_SHARE, accountId, accountId, accountId],
    );
  }
}

/** Each learner has completed the first lessons of the course, learner by learner, up to `to` rows. */
async function addProgress(db: Db, from: number, to: number, users: number, lessons: number): Promise<void> {
  if (to <= from) return;
  const perUser = Math.min(lessons, Math.ceil(to / users));
  // Row k is learner 1 + (k - 1) / perUser's lesson 1 + (k - 1) % perUser; earlier sizes wrote rows 1..from.
  for (let start = from + 1; start <= to; start += BATCH * 2) {
    const end = Math.min(to, start + BATCH * 2 - 1);
    await db.raw(
      `INSERT INTO lesson_progress (user_id, lesson_id, module_id, completed_at)
       SELECT u.id, l.id, (SELECT id FROM bench_module), now() - ((k % 100000) || ' minutes')::interval
         FROM generate_series(?::int, ?::int) AS k
         JOIN bench_users u ON u.n = 1 + (k - 1) / ?
         JOIN bench_lessons l ON l.n = 1 + (k - 1) % ?
       ON CONFLICT (user_id, lesson_id) DO NOTHING`,
      [start, end, perUser, perUser],
    );
  }
}

/**
 * Staff actions `from + 1` to `to`, spread over the last year: about people (edits, blocks, roles), purchases
 * (refunds, comps) and products. Staff member 1 does one in 64 (thousands at full size), the others share
 * the rest.
 */
async function addAuditEntries(db: Db, from: number, to: number, users: number, purchases: number): Promise<void> {
  for (let start = from + 1; start <= to; start += BATCH) {
    const end = Math.min(to, start + BATCH - 1);
    await db.raw(
      `INSERT INTO audit_logs (actor_id, actor_email, action, resource, record_id, before, after, request_id, created_at)
       SELECT s.id, s.email, a.action, a.resource, a.record_id, a.before, a.after, 'bench-' || j,
              now() - ((j::bigint * 7919 % 525600) || ' minutes')::interval - interval '30 seconds'
         FROM generate_series(?::int, ?::int) AS j
         JOIN bench_staff s ON s.n = CASE WHEN j % 64 = 0 THEN 1 ELSE 2 + j % ? END
         CROSS JOIN LATERAL (
           SELECT CASE j % 4 WHEN 0 THEN 'update' WHEN 1 THEN 'user.blocked' END AS action, 'users' AS resource,
                  (SELECT id::text FROM bench_users WHERE n = 1 + j % ?) AS record_id,
                  jsonb_build_object('email', 'learner' || (1 + j % ?) || '@bench.example') AS before,
                  jsonb_build_object('email', 'learner' || (1 + j % ?) || '@bench.example',
                                     'reason', 'Chargebacks on several cards') AS after
            WHERE j % 4 < 2
           UNION ALL
           SELECT CASE WHEN j % 3 = 0 THEN 'purchase.refunded' ELSE 'purchase.comped' END, 'purchases',
                  (SELECT p.id::text FROM merchant_charges ch JOIN purchases p ON p.merchant_charge_id = ch.id
                    WHERE ch.identifier = 'ch_bench_' || (1 + j % ?)
                      AND ch.merchant_account_id = (SELECT id FROM merchant_accounts WHERE identifier = 'acct_history')),
                  NULL, jsonb_build_object('reason', 'Asked within the refund window')
            WHERE j % 4 = 2
           UNION ALL
           SELECT 'update', 'products', (SELECT id::text FROM bench_products WHERE n = 1 + j % 200),
                  jsonb_build_object('name', 'Course'), jsonb_build_object('name', 'Course, revised')
            WHERE j % 4 = 3) AS a`,
      [start, end, STAFF - 1, users, users, users, purchases],
    );
  }
}

/**
 * One person whose timeline has every kind of event, hundreds deep: 300 purchases paid (every tenth refunded by
 * staff), 40 given to others and 20 received, sign-ins, 200 emails, 60 staff notes and 400 staff actions about them.
 */
async function createRichPerson(db: Db, accountId: string): Promise<void> {
  const [rich] = await db('users')
    .insert({ email: 'rich@bench.example', name: 'Rich History', createdAt: db.raw(`now() - interval '2 years'`) })
    .returning('id');
  await db.raw(
    `WITH src AS MATERIALIZED (
       SELECT k, gen_random_uuid() AS charge_id, p.merchant_product_id, p.id AS product_id, p.author_id, 4900 AS amount, 172 AS fee,
              now() - (k * 2 || ' days')::interval + (k || ' minutes')::interval AS at
         FROM generate_series(1, 300) AS k JOIN bench_products p ON p.n = 1 + k % (SELECT count(*) FROM bench_products)),
     ch AS (
       INSERT INTO merchant_charges (id, merchant_account_id, identifier, amount, fee, net, refund_amount, currency,
                                     user_id, merchant_product_id, created_at)
       SELECT charge_id, ?, 'ch_rich_' || k, amount, fee, amount - fee, CASE WHEN k % 10 = 0 THEN amount ELSE 0 END,
              'usd', ?, merchant_product_id, at FROM src RETURNING id),
     charged AS (SELECT * FROM src),
     bought AS (
       INSERT INTO purchases (user_id, product_id, status, total_amount, currency, country, merchant_charge_id, created_at)
       SELECT ?, product_id, CASE WHEN k % 10 = 0 THEN 'Refunded' ELSE 'Valid' END, amount, 'usd', 'US', charge_id, at
         FROM charged RETURNING id),
     refunded AS (
       INSERT INTO merchant_refunds (merchant_account_id, identifier, status, merchant_charge_id, amount,
                                     idempotency_key, reason_code, reason, requested_by_id, created_at)
       SELECT ?, 're_rich_' || k, 'succeeded', charge_id, amount, 'bench-rich-refund-' || k, 'duplicate',
              'Bought twice', (SELECT id FROM bench_staff WHERE n = 1), at + interval '1 hour'
         FROM charged WHERE k % 10 = 0 RETURNING id)
     INSERT INTO split_lines (merchant_charge_id, product_id, recipient_type, user_id, kind, amount, currency,
                              reference, created_at)
     SELECT charge_id, product_id, l.recipient_type, l.user_id, l.kind, l.amount, 'usd', l.reference, l.at
       FROM charged CROSS JOIN LATERAL (VALUES
              ('platform', NULL::uuid, 'sale', 1470, NULL, at),
              ('owner', author_id, 'sale', 3258, NULL, at),
              ('platform', NULL::uuid, 'refund', -1523, 're_rich_' || k, at + interval '1 hour'),
              ('owner', author_id, 'refund', -3377, 're_rich_' || k, at + interval '1 hour')
            ) AS l(recipient_type, user_id, kind, amount, reference, at)
      WHERE l.kind = 'sale' OR k % 10 = 0`,
    [accountId, rich.id, rich.id, accountId],
  );
  // Given away: 40 of their purchases now belong to learners; received: 20 learners' purchases are theirs.
  await db.raw(
    `WITH given AS (
       SELECT p.id, row_number() OVER (ORDER BY p.created_at) AS k, p.created_at
         FROM purchases p WHERE p.user_id = ? AND p.status = 'Valid' ORDER BY p.created_at LIMIT 40),
     moved AS (
       UPDATE purchases p SET user_id = u.id FROM given g JOIN bench_users u ON u.n = 1 + g.k
        WHERE p.id = g.id RETURNING p.id, p.user_id, g.created_at, g.k)
     INSERT INTO purchase_user_transfers (transfer_state, purchase_id, source_user_id, target_user_id, created_at,
                                          expires_at, confirmed_at, completed_at, by_support)
     SELECT 'COMPLETED', id, ?, user_id, created_at + interval '1 day', created_at + interval '8 days',
            created_at + interval '2 days', created_at + interval '2 days', k % 4 = 0 FROM moved`,
    [rich.id, rich.id],
  );
  await db.raw(
    `WITH taken AS (
       SELECT p.id, p.user_id, p.created_at FROM purchases p
         JOIN bench_users u ON u.id = p.user_id AND u.n BETWEEN 50 AND 69
        WHERE p.status = 'Valid' AND p.created_at < now() - interval '30 days'
        ORDER BY u.n LIMIT 20),
     moved AS (UPDATE purchases p SET user_id = ? FROM taken t WHERE p.id = t.id RETURNING p.id, t.user_id, t.created_at)
     INSERT INTO purchase_user_transfers (transfer_state, purchase_id, source_user_id, target_user_id, created_at,
                                          expires_at, confirmed_at, completed_at)
     SELECT 'COMPLETED', id, user_id, ?, created_at + interval '1 day', created_at + interval '8 days',
            created_at + interval '2 days', created_at + interval '2 days' FROM moved`,
    [rich.id, rich.id],
  );
  await db.raw(
    `INSERT INTO sign_ins (user_id, method, user_agent, created_at)
     SELECT ?, CASE WHEN k % 5 = 0 THEN 'github' ELSE 'email' END, 'Mozilla/5.0 (bench)', now() - (k || ' days')::interval
       FROM generate_series(1, 150) AS k`,
    [rich.id],
  );
  await db.raw(
    `INSERT INTO outbox_emails (to_address, subject, text_body, kind, status, attempts, sent_at, created_at)
     SELECT 'rich@bench.example', 'Your receipt ' || k, 'Thank you.', 'receipt',
            CASE WHEN k % 20 = 0 THEN 'failed' ELSE 'sent' END, CASE WHEN k % 20 = 0 THEN 5 ELSE 1 END,
            CASE WHEN k % 20 = 0 THEN NULL ELSE now() - (k * 3 || ' days')::interval END,
            now() - (k * 3 || ' days')::interval
       FROM generate_series(1, 200) AS k`,
  );
  await db.raw(
    `INSERT INTO staff_notes (user_id, author_id, author_email, body, created_at)
     SELECT ?, s.id, s.email, 'Called about invoice ' || k || '; explained the refund policy.', now() - (k * 5 || ' days')::interval
       FROM generate_series(1, 60) AS k JOIN bench_staff s ON s.n = 1 + k % ?`,
    [rich.id, STAFF],
  );
  // The busy staff member's own page: their role changes and sign-ins.
  await db.raw(
    `INSERT INTO audit_logs (actor_id, actor_email, action, resource, record_id, before, after, request_id, created_at)
     SELECT a.id, a.email, 'user.roles-changed', 'users', s.id::text, jsonb_build_object('roles', '{support}'::text[]),
            jsonb_build_object('roles', '{admin}'::text[]), 'bench-staff-' || k, now() - (k || ' days')::interval
       FROM generate_series(1, 100) AS k JOIN bench_staff s ON s.n = 1 JOIN bench_staff a ON a.n = 2`,
  );
  await db.raw(
    `INSERT INTO sign_ins (user_id, method, user_agent, created_at)
     SELECT id, 'email', 'Mozilla/5.0 (bench)', now() - (k * 7 || ' hours')::interval
       FROM generate_series(1, 500) AS k JOIN bench_staff ON n = 1`,
  );
  await db.raw(
    `INSERT INTO audit_logs (actor_id, actor_email, action, resource, record_id, before, after, request_id, created_at)
     SELECT s.id, s.email, CASE k % 3 WHEN 0 THEN 'update' WHEN 1 THEN 'user.blocked' ELSE 'user.unblocked' END,
            'users', ?, jsonb_build_object('email', 'rich@bench.example'),
            jsonb_build_object('email', 'rich@bench.example', 'reason', 'Several chargebacks in a week'),
            'bench-rich-' || k, now() - (k || ' days')::interval - interval '3 hours'
       FROM generate_series(1, 400) AS k JOIN bench_staff s ON s.n = 1 + k % ?`,
    [rich.id, STAFF],
  );
}
