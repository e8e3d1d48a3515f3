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
 * of lessons linked to every product; purchases with their charges spread over the last year, 10 % in euros from
 * the EU, the rest in dollars, each with the tax the school charged; the split ledger as fulfilment writes it (a
 * sale's school and author lines, full refunds for one in ten with their refund and lines, lost disputes for one in
 * a hundred); an invoice for every charge and a credit note for every refund, numbered on in their sequences; each
 * sale's settled checkout with its Stripe customer, session and completed event (as fulfilment leaves them, so the
 * planner sees those tables at their size); lesson progress; the audit log's staff actions; coupons; one person with a rich timeline and one staff member behind
 * thousands of actions.
 */
export async function generateDataset(db: Db, size: DatasetSize): Promise<Dataset> {
  await db.raw(`CREATE TABLE IF NOT EXISTS bench_sizes (what text PRIMARY KEY, n int NOT NULL)`);
  const had = new Map(
    ((await db.raw(`SELECT what, n FROM bench_sizes`)).rows as { what: string; n: number }[]).map((r) => [r.what, r.n]),
  );
  if (!had.has('products')) await createCatalog(db, size);
  const account = await db('merchantAccounts').where({ identifier: 'acct_history' }).first('id');

  await addUsers(db, had.get('users') ?? 0, size.users);
  // Each sale's invoice, and its checkout with the provider's customer, session and event.
  const setAside: string[] = [];
  for (const table of ['invoices', 'checkouts', 'merchant_customers', 'merchant_sessions', 'merchant_events'])
    setAside.push(...(await setAsideIndexes(db, table)));
  await addPurchases(db, account.id, had.get('purchases') ?? 0, size.purchases, size.users, size.products);
  await addProgress(db, had.get('progressRows') ?? 0, size.progressRows, size.users, size.lessonsPerCourse);
  await addAuditEntries(db, had.get('auditEntries') ?? 0, size.auditEntries, size.users, size.purchases);
  if (!had.has('richPerson')) await createRichPerson(db, account.id);
  for (const definition of setAside) await db.raw(definition);
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

/**
 * The indexes of an empty table that no constraint holds, dropped so that a first load writes its rows alone: each is
 * built again afterwards from the definition returned (one sort of the whole table rather than an insert into every
 * index for every row). A table that has rows keeps its indexes.
 */
async function setAsideIndexes(db: Db, table: string): Promise<string[]> {
  if (await db(table).first(db.raw('1'))) return [];
  const { rows } = (await db.raw(
    `SELECT c.relname AS name, pg_get_indexdef(x.indexrelid) AS definition
       FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid
      WHERE x.indrelid = ?::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = x.indexrelid)`,
    [table],
  )) as { rows: { name: string; definition: string }[] };
  for (const { name } of rows) await db.raw(`DROP INDEX ${name}`);
  return rows.map((r) => r.definition);
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
 * Where a buyer of charge i (learner n) is billed, as a column list: euros are paid from the EU (a quarter in Germany,
 * the school's home, the rest over nine member states; one in five of them a business with its VAT ID), dollars from
 * the US (spread over states) and one in twenty from the UK.
 */
const BUYER_PLACE = `
  CASE WHEN i % 10 = 3 THEN (ARRAY['DE', 'DE', 'DE', 'FR', 'NL', 'IT', 'ES', 'AT', 'BE', 'PL', 'IE', 'SE'])[1 + (u.n / 10) % 12]
       WHEN u.n % 20 = 11 THEN 'GB' ELSE 'US' END AS buyer_country,
  CASE WHEN i % 10 = 3 OR u.n % 20 = 11 THEN NULL WHEN u.n % 20 = 15 THEN 'WA'
       ELSE (ARRAY['CA', 'NY', 'TX', 'FL', 'IL', 'MA'])[1 + (u.n / 20) % 6] END AS buyer_region,
  i % 10 = 3 AND (u.n / 100 + u.n / 10) % 5 = 2 AS business`;

/** A learner's billing details as given at checkout: a business's name and VAT ID, an address. */
const BUYER_DETAILS = `
  CASE WHEN business THEN 'Learner ' || user_n || ' Consulting' ELSE '' END AS buyer_company,
  CASE WHEN business THEN buyer_country || lpad(user_n::text, 9, '0') ELSE '' END AS buyer_vat_id,
  (user_n % 300 + 1) || ' Market Street' AS buyer_address`;

/** The standard VAT rates of the member states buyers come from, and the registrations abroad (basis points). */
const RATES = `(VALUES ('DE', NULL, 1900, 'VAT'), ('FR', NULL, 2000, 'VAT'), ('NL', NULL, 2100, 'VAT'),
  ('IT', NULL, 2200, 'VAT'), ('ES', NULL, 2100, 'VAT'), ('AT', NULL, 2000, 'VAT'), ('BE', NULL, 2100, 'VAT'),
  ('PL', NULL, 2300, 'VAT'), ('IE', NULL, 2300, 'VAT'), ('SE', NULL, 2500, 'VAT'), ('GB', NULL, 2000, 'VAT'),
  ('US', 'WA', 650, 'Sales tax')) AS rate(country, region, bp, name)`;

/**
 * A sale's tax as the school charged it (established in Germany, registered for the EU One-Stop Shop, in the UK and
 * in Washington; euro prices include the tax, dollar prices have it added): a lateral subquery over a buyer's
 * columns giving the charge's tax columns, its scheme, and the amount charged (the price, plus the tax when on top).
 * An EU business outside Germany is reverse-charged; elsewhere (other US states) nothing is taxed.
 */
const TAX_OF_SALE = `
  SELECT t.*, price + CASE WHEN t.tax_inclusive IS FALSE THEN t.tax_amount ELSE 0 END AS amount
    FROM (SELECT s.*, CASE WHEN s.tax_rate_bp IS NULL OR s.tax_rate_bp = 0 THEN 0
                           WHEN s.tax_inclusive THEN round(price * s.tax_rate_bp / (10000 + s.tax_rate_bp))::int
                           ELSE round(price * s.tax_rate_bp / 10000)::int END AS tax_amount
            FROM (SELECT scheme AS tax_scheme, rate.country AS tax_country, rate.region AS tax_region,
                         CASE WHEN scheme = 'reverse-charge' THEN 0 ELSE rate.bp END AS tax_rate_bp,
                         rate.name AS tax_name, CASE WHEN rate.country IS NOT NULL THEN currency = 'eur' END AS tax_inclusive,
                         scheme = 'reverse-charge' AS tax_reverse_charge
                    FROM (SELECT 1) AS one
                    LEFT JOIN ${RATES} ON rate.country = buyer_country AND rate.region IS NOT DISTINCT FROM buyer_region
                    CROSS JOIN LATERAL (SELECT CASE WHEN rate.country IS NULL THEN 'not-taxed'
                                                    WHEN business AND buyer_country <> 'DE' THEN 'reverse-charge'
                                                    WHEN buyer_country = 'DE' THEN 'domestic'
                                                    WHEN currency = 'eur' THEN 'eu-oss'
                                                    ELSE 'registration' END AS scheme) AS how) AS s) AS t`;

/** The school as its documents name it when issued (its settings may have changed since: documents keep theirs). */
const SELLER = `jsonb_build_object('name', 'Bench Academy GmbH', 'tradingName', 'Bench Academy',
  'address', 'Torstraße 1' || chr(10) || '10119 Berlin', 'taxId', 'DE123456789', 'country', 'DE',
  'email', 'billing@bench.example')`;

const REVERSE_CHARGE_NOTE = 'Reverse charge: VAT to be accounted for by the recipient (Art. 196 VAT Directive)';

/**
 * CTEs issuing the documents of the sales in `source` as the product does: each charge's invoice, numbered on in its
 * year's sequence after the last number issued, in the order of the sales (issued when paid: its date of supply);
 * a credit note for each refund (on its date, in the credit notes' sequence), crediting the whole with its tax; and
 * the counters moved to the last numbers, so the next invoice the product issues follows on. `source` has a row
 * per charge: i (orders ties), charge_id, purchase_id, invoice_id, credit_note_id, user_id, user_name, user_email,
 * buyer_country, buyer_region, buyer_company, buyer_vat_id, buyer_address, product_name, price, amount, currency,
 * at, refunded_at (null: not refunded) and the tax columns with tax_scheme.
 */
// Only what a document holds of its sale: the rows are sorted to be numbered, so the narrower the better.
const DOCUMENT_FACTS = `s.i, s.charge_id, s.purchase_id, s.user_id, s.user_name, s.user_email, s.buyer_country,
  s.buyer_region, s.buyer_company, s.buyer_vat_id, s.buyer_address, s.product_name, s.price, s.amount, s.currency,
  s.tax_scheme, s.tax_country, s.tax_region, s.tax_rate_bp, s.tax_name, s.tax_inclusive, s.tax_reverse_charge,
  s.tax_amount`;

function documentsOf(source: string): string {
  return `
    docs AS MATERIALIZED (
      SELECT d.*, coalesce(counter.last, 0) + row_number() OVER (PARTITION BY d.kind, d.year ORDER BY d.dated, d.i)
                  AS sequence
        FROM (SELECT ${DOCUMENT_FACTS}, 'invoice' AS kind, s.invoice_id AS id, NULL::uuid AS credits, s.at AS dated,
                     extract(year FROM s.at AT TIME ZONE 'UTC')::int AS year
                FROM ${source} s
              UNION ALL
              SELECT ${DOCUMENT_FACTS}, 'credit-note', s.credit_note_id, s.invoice_id, s.refunded_at,
                     extract(year FROM s.refunded_at AT TIME ZONE 'UTC')::int
                FROM ${source} s WHERE s.refunded_at IS NOT NULL) AS d
        LEFT JOIN invoice_counters counter ON counter.kind = d.kind AND counter.year = d.year),
    numbered AS MATERIALIZED (
      SELECT docs.*, CASE kind WHEN 'credit-note' THEN 'CN-' ELSE '' END || year || '-'
                     || lpad(sequence::text, greatest(6, length(sequence::text)), '0') AS number
        FROM docs),
    issued AS (
      INSERT INTO invoices (id, kind, number, year, sequence, issued_at, supplied_at, tax_scheme, merchant_charge_id,
                            purchase_id, payer_user_id, invoice_id, refunded_to, seller, buyer, lines, subtotal, discount,
                            taxable, tax_country, tax_region, tax_rate_bp, tax_name, tax_inclusive, tax_reverse_charge,
                            tax_amount, total, currency)
      SELECT d.id, d.kind, d.number, d.year, d.sequence, d.dated, d.dated, d.tax_scheme, d.charge_id, d.purchase_id,
             d.user_id, d.credits, CASE WHEN d.kind = 'credit-note' THEN d.amount END, ${SELLER},
             jsonb_build_object('name', d.user_name, 'email', d.user_email, 'company', d.buyer_company,
                                'address', d.buyer_address, 'country', d.buyer_country, 'region', d.buyer_region,
                                'vatId', d.buyer_vat_id),
             CASE WHEN d.kind = 'credit-note'
                  THEN jsonb_build_array(jsonb_build_object('kind', 'refund', 'quantity', 1, 'unitAmount', d.amount,
                         'amount', d.amount,
                         'description', 'Refund of ' || d.product_name || ' (invoice ' || sale.number || ')'))
                  ELSE jsonb_build_array(jsonb_build_object('kind', 'item', 'description', d.product_name, 'quantity', 1,
                         'unitAmount', d.price, 'amount', d.price))
                       || CASE WHEN d.tax_reverse_charge
                               THEN jsonb_build_array(jsonb_build_object('kind', 'note', 'description', '${REVERSE_CHARGE_NOTE}'))
                               WHEN d.tax_country IS NULL
                               THEN jsonb_build_array(jsonb_build_object('kind', 'note',
                                      'description', 'Not subject to VAT in '
                                        || CASE d.buyer_country WHEN 'US' THEN 'United States' ELSE d.buyer_country END))
                               ELSE '[]'::jsonb END END,
             CASE WHEN d.kind = 'credit-note' THEN d.amount ELSE d.price END, 0, d.amount - d.tax_amount,
             d.tax_country, d.tax_region, d.tax_rate_bp, d.tax_name, d.tax_inclusive, d.tax_reverse_charge, d.tax_amount,
             d.amount, d.currency
        FROM numbered d LEFT JOIN numbered sale ON sale.kind = 'invoice' AND sale.id = d.credits
       RETURNING 1),
    counted AS (
      INSERT INTO invoice_counters (kind, year, last) SELECT kind, year, max(sequence) FROM docs GROUP BY kind, year
        ON CONFLICT (kind, year) DO UPDATE SET last = excluded.last
      RETURNING 1)`;
}

/**
 * Charges `from + 1` to `to` with their purchases, split lines, invoices and credit notes, one statement a batch.
 * Charge i is paid by learner 1 + i % users for product 1 + (i / 7) % products, at a minute of the last year that i
 * scatters (a multiplier prime to the year's minutes), so a small dataset spans the year as a large one does. Its
 * tax follows where the learner is billed (BUYER_PLACE, TAX_OF_SALE) and is nobody's revenue: the sale's lines share
 * out the amount less tax and fee. One in ten (by the tens digit, so every place has refunds) is refunded in full a
 * day later, one in a hundred lost to a dispute; each writes its money row and its ledger lines, net of tax, spread
 * over the sale's lines as the ledger does (the remainder of rounding to the larger line, the author's).
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
      `WITH buyer AS MATERIALIZED (
         SELECT i, u.id AS user_id, u.n AS user_n, p.merchant_product_id, p.id AS product_id, p.author_id,
                'Course ' || p.n AS product_name, 1900 + (i % 5) * 1000 AS price,
                CASE WHEN i % 10 = 3 THEN 'eur' ELSE 'usd' END AS currency,
                now() - ((i::bigint * 7919 % 525600) || ' minutes')::interval AS at,
                CASE WHEN i / 10 % 10 = 7 THEN 'refund' WHEN i % 100 = 43 THEN 'dispute' END AS trouble,
                ${BUYER_PLACE}
           FROM generate_series(?::int, ?::int) AS i
           JOIN bench_users u ON u.n = 1 + i % ?
           JOIN bench_products p ON p.n = 1 + (i / 7) % ?),
       src AS MATERIALIZED (
         SELECT buyer.*, t.*, gen_random_uuid() AS charge_id, gen_random_uuid() AS purchase_id,
                gen_random_uuid() AS invoice_id, gen_random_uuid() AS credit_note_id,
                gen_random_uuid() AS customer_id, gen_random_uuid() AS session_id,
                'Learner ' || user_n AS user_name, 'learner' || user_n || '@bench.example' AS user_email,
                CASE WHEN trouble = 'refund' THEN least(now(), at + interval '1 day') END AS refunded_at,
                ${BUYER_DETAILS}
           FROM buyer CROSS JOIN LATERAL (${TAX_OF_SALE}) AS t),
       money AS (
         SELECT src.*, round(amount * 0.029)::int + 30 AS fee,
                least(amount - tax_amount - (round(amount * 0.029)::int + 30),
                      round((amount - tax_amount) * ?::numeric)::int) AS platform
           FROM src),
       lines AS (
         SELECT money.*, amount - tax_amount - fee - platform AS author,
                -floor((amount - tax_amount)::numeric * platform / (amount - tax_amount - fee))::int AS platform_back,
                -(amount - tax_amount) + floor((amount - tax_amount)::numeric * platform / (amount - tax_amount - fee))::int
                  AS author_back
           FROM money),
       ch AS (
         INSERT INTO merchant_charges (id, merchant_account_id, identifier, amount, fee, net, refund_amount, currency,
                                       user_id, merchant_product_id, created_at, tax_country, tax_region, tax_rate_bp,
                                       tax_name, tax_inclusive, tax_reverse_charge, tax_amount, refunded_tax,
                                       merchant_customer_id)
         SELECT charge_id, ?, 'ch_bench_' || i, amount, fee, amount - fee,
                CASE WHEN trouble = 'refund' THEN amount ELSE 0 END, currency, user_id, merchant_product_id, at,
                tax_country, tax_region, tax_rate_bp, tax_name, tax_inclusive, tax_reverse_charge, tax_amount,
                CASE WHEN trouble = 'refund' THEN tax_amount ELSE 0 END, customer_id
           FROM lines RETURNING id),
       charged AS MATERIALIZED (SELECT * FROM lines),
       customers AS (
         INSERT INTO merchant_customers (id, merchant_account_id, identifier, user_id, created_at)
         SELECT customer_id, ?, 'cus_bench_' || i, user_id, at FROM charged RETURNING id),
       sessions AS (
         INSERT INTO merchant_sessions (id, merchant_account_id, identifier, created_at)
         SELECT session_id, ?, 'cs_bench_' || i, at FROM charged RETURNING id),
       settled AS (
         INSERT INTO checkouts (product_id, price_id, quantity, buyer_email, amount_total, currency, country, status,
                                created_at, updated_at, expires_at, merchant_session_id, purchase_id, buyer_user_id)
         SELECT product_id, (SELECT pr.id FROM prices pr WHERE pr.product_id = charged.product_id ORDER BY pr.id LIMIT 1),
                1, user_email, amount, currency, buyer_country, 'fulfilled', at, at, at + interval '1 hour',
                session_id, purchase_id, user_id
           FROM charged RETURNING id),
       events AS (
         INSERT INTO merchant_events (merchant_account_id, identifier, type, received_at, processed_at)
         SELECT ?, 'evt_bench_' || i, 'checkout.session.completed', at, at FROM charged RETURNING id),
       bought AS (
         INSERT INTO purchases (id, user_id, product_id, status, total_amount, currency, country, merchant_charge_id,
                                merchant_session_id, created_at)
         SELECT purchase_id, user_id, product_id,
                CASE trouble WHEN 'refund' THEN 'Refunded' WHEN 'dispute' THEN 'Disputed' ELSE 'Valid' END,
                amount, currency, buyer_country, charge_id, session_id, at
           FROM charged RETURNING id),
       refunded AS (
         INSERT INTO merchant_refunds (merchant_account_id, identifier, status, merchant_charge_id, amount,
                                       idempotency_key, reason_code, created_at)
         SELECT ?, 're_bench_' || i, 'succeeded', charge_id, amount, 'bench-refund-' || i, 'customer-request',
                refunded_at
           FROM charged WHERE trouble = 'refund' RETURNING id),
       disputed AS (
         INSERT INTO merchant_disputes (merchant_account_id, identifier, merchant_charge_id, amount, tax_amount, reason,
                                        status, created_at, closed_at)
         SELECT ?, 'dp_bench_' || i, charge_id, amount, tax_amount, 'fraudulent', 'lost',
                least(now(), at + interval '3 days'), least(now(), at + interval '20 days')
           FROM charged WHERE trouble = 'dispute' RETURNING id),
       ${documentsOf('charged')}
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
      [start, end, users, products, PLATFORM_SHARE, ...Array(6).fill(accountId)],
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
  // Paid in dollars from New York, where the school is not registered: invoiced untaxed, like the other US sales.
  await db.raw(
    `WITH src AS MATERIALIZED (
       SELECT k AS i, gen_random_uuid() AS charge_id, gen_random_uuid() AS purchase_id, gen_random_uuid() AS invoice_id,
              gen_random_uuid() AS credit_note_id, ?::uuid AS user_id, 'Rich History' AS user_name,
              'rich@bench.example' AS user_email, 'US' AS buyer_country, 'NY' AS buyer_region, '' AS buyer_company,
              '' AS buyer_vat_id, '5 Park Avenue' AS buyer_address, p.merchant_product_id, p.id AS product_id,
              p.author_id, 'Course ' || p.n AS product_name, 4900 AS price, 4900 AS amount, 172 AS fee, 'usd' AS currency,
              now() - (k * 2 || ' days')::interval + (k || ' minutes')::interval AS at,
              CASE WHEN k % 10 = 0 THEN now() - (k * 2 || ' days')::interval + (k || ' minutes')::interval
                                        + interval '1 hour' END AS refunded_at,
              'not-taxed' AS tax_scheme, NULL AS tax_country, NULL AS tax_region, NULL::numeric AS tax_rate_bp,
              NULL AS tax_name, NULL::boolean AS tax_inclusive, false AS tax_reverse_charge, 0 AS tax_amount
         FROM generate_series(1, 300) AS k JOIN bench_products p ON p.n = 1 + k % (SELECT count(*) FROM bench_products)),
     ch AS (
       INSERT INTO merchant_charges (id, merchant_account_id, identifier, amount, fee, net, refund_amount, currency,
                                     user_id, merchant_product_id, created_at)
       SELECT charge_id, ?, 'ch_rich_' || i, amount, fee, amount - fee, CASE WHEN i % 10 = 0 THEN amount ELSE 0 END,
              'usd', user_id, merchant_product_id, at FROM src RETURNING id),
     charged AS (SELECT * FROM src),
     bought AS (
       INSERT INTO purchases (id, user_id, product_id, status, total_amount, currency, country, merchant_charge_id,
                              created_at)
       SELECT purchase_id, user_id, product_id, CASE WHEN i % 10 = 0 THEN 'Refunded' ELSE 'Valid' END, amount, 'usd',
              'US', charge_id, at
         FROM charged RETURNING id),
     refunded AS (
       INSERT INTO merchant_refunds (merchant_account_id, identifier, status, merchant_charge_id, amount,
                                     idempotency_key, reason_code, reason, requested_by_id, created_at)
       SELECT ?, 're_rich_' || i, 'succeeded', charge_id, amount, 'bench-rich-refund-' || i, 'duplicate',
              'Bought twice', (SELECT id FROM bench_staff WHERE n = 1), refunded_at
         FROM charged WHERE i % 10 = 0 RETURNING id),
     ${documentsOf('src')}
     INSERT INTO split_lines (merchant_charge_id, product_id, recipient_type, user_id, kind, amount, currency,
                              reference, created_at)
     SELECT charge_id, product_id, l.recipient_type, l.user_id, l.kind, l.amount, 'usd', l.reference, l.at
       FROM charged CROSS JOIN LATERAL (VALUES
              ('platform', NULL::uuid, 'sale', 1470, NULL, at),
              ('owner', author_id, 'sale', 3258, NULL, at),
              ('platform', NULL::uuid, 'refund', -1523, 're_rich_' || i, at + interval '1 hour'),
              ('owner', author_id, 'refund', -3377, 're_rich_' || i, at + interval '1 hour')
            ) AS l(recipient_type, user_id, kind, amount, reference, at)
      WHERE l.kind = 'sale' OR i % 10 = 0`,
    [rich.id, accountId, accountId],
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
