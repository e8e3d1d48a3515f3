import fc from 'fast-check';
import pg from 'pg';
import request, { type Response } from 'supertest';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { ADMIN_RESOURCES } from '../../api/src/admin/resources';
import { type Product } from '../support/models';
import { createServices, type Services } from '../../api/src/services';
import { createCourse, createProduct, createPurchase } from '../../seeds/factories';
import { runSeeds } from '../../seeds/run';
import { testConfig, testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { boughtWithTestProvider } from '../support/checkout';
import { useTestDatabase } from '../support/db';

/**
 * Property-based fuzzing of what clients send: the console's list parameters and every storefront request body.
 * Whatever arrives, the answer is 2xx or 4xx (never 5xx) with a clear code, and a refused request writes nothing.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
/** Any JSON, with strings of any code points (NUL and lone surrogates included). */
const anyJson = fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' });
const anyString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('', ' ', '[]', '{}', 'null', '["id"]', '[0,1e400]', '\u0000', '%00', '[', '"'),
);
const UUID = '00000000-0000-4000-8000-000000000000';
/** A value one time in ten, undefined otherwise. */
const sometimes = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });
/** Names that a plain object inherits (or, for __proto__, that set its prototype): a lookup by key must not find them. */
const PROTO_KEYS = [
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__proto__',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  'prototype',
];
const protoKey = fc.oneof(
  fc.constantFrom(...PROTO_KEYS),
  fc.constantFrom(...PROTO_KEYS).map((k) => `${k}_gte`),
  fc.constantFrom(...PROTO_KEYS).map((k) => `${k}_lte`),
);
/** JSON text with prototype names as keys and values, as clients may send in a query parameter. */
const protoJson = fc.oneof(
  fc.tuple(protoKey, anyJson).map(([key, value]) => `{${JSON.stringify(key)}:${JSON.stringify(value)}}`),
  fc.tuple(protoKey, fc.constantFrom('ASC', 'DESC', 'asc')).map(([key, order]) => JSON.stringify([key, order])),
  fc.constantFrom(
    '{"__proto__":{"id":"x"}}',
    '{"__proto__":[0,1]}',
    '{"q":"a","__proto__":{"q":1}}',
    '{"constructor":{"prototype":{"x":1}}}',
    '[0,{"valueOf":1}]',
  ),
);
/**
 * JSON text nesting arrays, objects or both `depth` levels deep (built as text: the value itself could not be
 * stringified), with a scalar at the bottom.
 */
const deepJson = (maxDepth: number) =>
  fc
    .tuple(fc.integer({ min: 65, max: maxDepth }), fc.constantFrom('array', 'object', 'mixed'))
    .map(([depth, shape]) => {
      const open = (i: number) => (shape === 'array' || (shape === 'mixed' && i % 2) ? '[' : '{"a":');
      const close = (i: number) => (shape === 'array' || (shape === 'mixed' && i % 2) ? ']' : '}');
      const levels = Array.from({ length: depth }, (_, i) => i);
      return `${levels.map(open).join('')}1${levels.reverse().map(close).join('')}`;
    });

describe('fuzzing', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let services: Services;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let admin: SignedIn;
  let learner: SignedIn;
  /** Every table's sum as it is now (see `checksum` in beforeAll). */
  let checksum: () => Promise<Record<string, string>>;
  /** The checksum's own connection, on which it is a prepared statement. */
  let checksumClient: pg.Client | undefined;
  /** Whether an email may be waiting to be sent: at a property's start, and after a request that was not refused. */
  let emailsMayBePending = true;
  /** Names only the database knows (constraints, indexes, snake_case tables): no error message may carry one. */
  let databaseNames: string[] = [];
  let stripeApp: ReturnType<ReturnType<typeof createApp>['callback']>;
  /** The statuses one property saw, printed after it: a run that never gets past validation proves little. */
  let statuses: Record<string, number> = {};
  beforeEach(() => {
    statuses = {};
    emailsMayBePending = true;
  });
  afterEach((context) => {
    console.info(`${context.task.name}: statuses`, statuses);
  });

  beforeAll(async () => {
    // Every generated comment reaches the insert (one learner posts hundreds a minute here); the limit has its own test.
    const deps = testDeps(db(), { config: testConfig({ COMMENTS_PER_MINUTE: '10000' }) });
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    await runSeeds(db(), { demo: true });
    admin = await signedIn(db(), ['admin']);
    learner = await signedIn(db(), ['learner']);

    // One query that sums up every table (the knex bookkeeping aside): its row count and the newest transaction that
    // wrote a row of it (xmin), so an insert, an update (even to the same values) or a delete each changes it. The
    // sessions are summed by their contents instead, less last_seen_at, which signing a request in refreshes now and
    // then whatever the request does.
    const tables = (
      await db().raw<{ rows: { table_name: string }[] }>(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT LIKE 'knex_%' ORDER BY table_name`,
      )
    ).rows.map((r) => r.table_name);
    expect(tables).toContain('sessions');
    const summed = (t: string) =>
      t === 'sessions'
        ? `(SELECT md5(coalesce(string_agg(r, '|' ORDER BY r), '')) FROM (SELECT (to_jsonb(x) - 'last_seen_at')::text AS r FROM "${t}" x) rows)`
        : `(SELECT count(*) || ':' || coalesce(max(xmin::text::bigint), 0) FROM "${t}")`;
    const sql = `SELECT pg_current_snapshot()::text AS "(snapshot)", ${tables.map((t) => `${summed(t)} AS "${t}"`).join(', ')}`;
    // A prepared statement on a connection of its own: planning its hundred subqueries took 15-25 ms, twice for each
    // refused request (most of this file's time); without parameters its plan is made once.
    // It is not run again while the server's snapshot reads as it did when it last ran. Rows change only when a
    // transaction that wrote them ends, and every end, on any database of the server, changes the snapshot (its xmax,
    // or the list of transactions running): an unchanged snapshot sees exactly the rows the checksum summed. Another
    // database's commit only makes the checksum run.
    const client = new pg.Client({ connectionString: database().url });
    checksumClient = client;
    await client.connect();
    let last: { snapshot: string; sums: Record<string, string> } | undefined;
    checksum = async () => {
      if (last) {
        const now = (await client.query<{ s: string }>('SELECT pg_current_snapshot()::text AS s')).rows[0]!.s;
        if (now === last.snapshot) return last.sums;
      }
      const { '(snapshot)': snapshot, ...sums } = (
        await client.query<Record<string, string>>({ name: 'checksum', text: sql })
      ).rows[0]!;
      last = { snapshot: snapshot!, sums };
      return sums;
    };
    databaseNames = (
      await db().raw<{ rows: { name: string }[] }>(
        `SELECT conname AS name FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = 'public'
         UNION SELECT relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = 'public' AND (c.relkind = 'i' OR (c.relkind = 'r' AND c.relname LIKE '%\\_%'))`,
      )
    ).rows.map((r) => r.name);
    expect(databaseNames).toContain('purchases_pkey');
    // Stripe configured (the signature is checked before any call to Stripe, so no stand-in is needed).
    stripeApp = createApp(
      testDeps(db(), {
        config: testConfig({ STRIPE_SECRET_KEY: 'sk_test_fuzz', STRIPE_WEBHOOK_SECRET: 'whsec_fuzz' }),
      }),
    ).callback();
  });

  afterAll(async () => {
    await checksumClient?.end();
  });

  /** An answer we accept: 2xx, or 4xx with a string code and a message; a refused request left every table as it was. */
  async function expectSafe(
    send: () => Promise<Response>,
    what: unknown,
    mayWrite: (status: number) => string[] = () => [],
  ): Promise<Response> {
    // An email of an earlier accepted request, being sent, is not this request's write. A refused request was proven
    // to have written nothing, so it queued no email: after one there is nothing to send.
    if (emailsMayBePending) await services.outbox.flush();
    emailsMayBePending = false;
    const before = await checksum();
    const answer = await send();
    if (answer.status < 400) emailsMayBePending = true;
    const seen = `${answer.status}${answer.body?.errors ? ` ${Object.keys(answer.body.errors).join(',')}` : ''}`;
    statuses[seen] = (statuses[seen] ?? 0) + 1;
    const context = `${JSON.stringify(what)?.slice(0, 500)} → ${answer.status} ${JSON.stringify(answer.body)?.slice(0, 300)}`;
    expect(answer.status, context).toBeLessThan(500);
    if (answer.status >= 400) {
      expect(typeof answer.body.code, context).toBe('string');
      expect(answer.body.code.length, context).toBeGreaterThan(0);
      expect(typeof answer.body.message, context).toBe('string');
      const text = JSON.stringify(answer.body);
      expect(
        databaseNames.filter((name) => text.includes(name)),
        `an error named the database's insides: ${context}`,
      ).toEqual([]);
      expect(text, context).not.toMatch(/violates|duplicate key|relation "|constraint "/);
      const after = await checksum();
      const changed = Object.keys(before).filter(
        (table) => before[table] !== after[table] && !mayWrite(answer.status).includes(table),
      );
      expect(changed, `a refused request wrote something: ${context}`).toEqual([]);
    }
    return answer;
  }

  describe('admin list parameters (sort, range, filter)', () => {
    const resources = [
      'purchases',
      'users',
      'products',
      'coupons',
      'content-resources',
      'merchant-charges',
      'audit-logs',
    ];

    for (const name of resources) {
      it(`GET /api/admin/${name} answers 2xx or 4xx to any sort, range and filter`, async () => {
        const resource = ADMIN_RESOURCES.find((r) => r.name === name)!;
        expect(resource, name).toBeTruthy();
        const fields = [...new Set([...Object.keys(resource.filterable), ...resource.sortable, 'id', 'q'])];
        const json = (arb: fc.Arbitrary<unknown>) => arb.map((v) => JSON.stringify(v));
        // Values that fit a field's kind, so that many queries pass validation and reach the database.
        const byKind: Record<string, fc.Arbitrary<unknown>> = {
          id: fc.oneof(fc.uuid(), fc.constant(UUID)),
          text: fc.string({ unit: 'binary', maxLength: 40 }),
          enum: fc.oneof(
            fc.constantFrom('Valid', 'Refunded', 'active', 'archived', 'lesson', 'usd'),
            fc.string({ maxLength: 20 }),
          ),
          role: fc.constantFrom('admin', 'support', 'finance', 'learner', 'nobody'),
          number: fc.oneof(fc.integer(), fc.double({ noNaN: true })),
          date: fc.oneof(
            fc
              .date({ min: new Date('1900-01-01'), max: new Date('2200-01-01'), noInvalidDate: true })
              .map((d) => d.toISOString()),
            fc.constantFrom('2026-01-01', '2026-02-30', '0001-01-01', '9999-12-31', '2026-01-01T00:00:00+14:00'),
          ),
          boolean: fc.boolean(),
        };
        const fitting = Object.entries(resource.filterable).map(([field, kind]) => {
          const value = byKind[kind] ?? anyJson;
          const keys = kind === 'number' || kind === 'date' ? [field, `${field}_gte`, `${field}_lte`] : [field];
          return fc.tuple(
            fc.constantFrom(...keys),
            fc.oneof(
              { weight: 4, arbitrary: value },
              { weight: 1, arbitrary: fc.array(value, { maxLength: 3 }) },
              { weight: 1, arbitrary: anyJson },
            ),
          );
        });
        if (resource.searchable.length)
          fitting.push(
            fc.tuple(
              fc.constant('q'),
              fc.oneof(fc.string({ unit: 'binary', maxLength: 30 }), fc.constantFrom('%', '_', '\\', "'", '%_%')),
            ),
          );
        const filterEntry = fc.oneof(
          { weight: 5, arbitrary: fc.oneof(...fitting) },
          { weight: 1, arbitrary: fc.tuple(fc.oneof(fc.constantFrom(...fields), fc.string()), anyJson) },
          { weight: 1, arbitrary: fc.tuple(protoKey, fc.oneof(anyJson, fc.constantFrom(...PROTO_KEYS))) },
        );
        // Object.fromEntries makes `__proto__` an own key, which JSON.stringify writes out as a client would.
        const filter = fc.oneof(
          {
            weight: 6,
            arbitrary: json(fc.array(filterEntry, { maxLength: 4 }).map((entries) => Object.fromEntries(entries))),
          },
          { weight: 1, arbitrary: anyString },
          { weight: 1, arbitrary: json(anyJson) },
          { weight: 1, arbitrary: protoJson },
          { weight: 1, arbitrary: deepJson(500) },
        );
        const sort = fc.oneof(
          {
            weight: 6,
            arbitrary: json(
              fc.tuple(fc.constantFrom(...resource.sortable), fc.constantFrom('ASC', 'DESC', 'asc', 'desc')),
            ),
          },
          {
            weight: 1,
            arbitrary: json(
              fc.tuple(
                fc.oneof(fc.constantFrom(...fields), fc.string(), protoKey),
                fc.oneof(fc.constantFrom('ASC', 'DESC', 'Asc', ...PROTO_KEYS), anyJson),
              ),
            ),
          },
          { weight: 1, arbitrary: anyString },
          { weight: 1, arbitrary: json(anyJson) },
          { weight: 1, arbitrary: protoJson },
        );
        const range = fc.oneof(
          {
            weight: 6,
            arbitrary: json(fc.tuple(fc.nat(2_000), fc.nat(499)).map(([start, size]) => [start, start + size])),
          },
          {
            weight: 1,
            arbitrary: json(fc.tuple(fc.integer({ min: -10, max: 2 ** 53 }), fc.integer({ min: -10, max: 2 ** 53 }))),
          },
          { weight: 1, arbitrary: json(fc.tuple(fc.double(), fc.double())) },
          { weight: 1, arbitrary: anyString },
          { weight: 1, arbitrary: json(anyJson) },
          { weight: 1, arbitrary: protoJson },
        );
        const params = fc.record({ sort, range, filter }, { requiredKeys: [] });
        // A parameter given twice (an array in the query) as well.
        const repeated = sometimes(fc.constantFrom('sort', 'range', 'filter'));

        await fc.assert(
          fc.asyncProperty(params, repeated, async (query, twice) => {
            const search = new URLSearchParams();
            for (const [key, value] of Object.entries(query)) search.append(key, value as string);
            if (twice) search.append(twice, '[]');
            const answer = await expectSafe(
              () => as(admin, request(app).get(`/api/admin/${name}?${search.toString()}`)),
              query,
            );
            if (answer.status === 200)
              expect(answer.headers['content-range'], JSON.stringify(query)).toMatch(
                new RegExp(`^${name} \\d+-\\d+/\\d+$|^${name} \\*/\\d+$`),
              );
            else expect(answer.status, JSON.stringify(answer.body)).toBe(400);
          }),
          { numRuns: RUNS },
        );
      });
    }
  });

  describe('storefront request bodies', () => {
    let product: Product;
    let lessonId: string;
    let purchaseId: string;
    let teamCouponId: string;
    let commentId: string;
    let courseSlug: string;

    beforeAll(async () => {
      product = await createProduct(db(), { name: 'Fuzzed Course', unitAmount: 3000 });
      const { course, lessons } = await createCourse(
        db(),
        {
          title: 'Fuzzed Course',
          modules: [
            {
              title: 'M',
              sections: [
                {
                  title: 'S',
                  lessons: [
                    { title: 'L1', body: '<p>1</p>' },
                    { title: 'L2', body: '<p>2</p>' },
                  ],
                },
              ],
            },
          ],
        },
        { products: [product] },
      );
      lessonId = lessons[1]!.id;
      courseSlug = course.fields.slug!;
      await createPurchase(db(), { user: learner.user, product });
      const other = await createProduct(db(), { name: 'Transferable Fuzz Course', unitAmount: 4000 });
      purchaseId = await boughtWithTestProvider(services, db(), { buyer: learner.user, productId: other.id });
      const team = await boughtWithTestProvider(services, db(), {
        buyer: learner.user,
        productId: (await createProduct(db(), { name: 'Team Fuzz Course' })).id,
        quantity: 3,
      });
      teamCouponId = (await db()('purchases').where({ id: team }).first('bulkCouponId')).bulkCouponId;
      commentId =
        (
          await as(learner, request(app).post(`/api/store/lessons/${lessonId}/comments`)).send({
            text: 'a first comment',
          })
        ).body.id ?? (await db()('comments').first('id')).id;
    });

    /**
     * A body: mostly a valid one, or a valid one with one field changed to any JSON, removed, or joined by a stranger;
     * sometimes an object of the endpoint's field names holding any JSON, or any JSON at all.
     */
    const bodyOf = (fields: Record<string, fc.Arbitrary<unknown>>) => {
      const names = Object.keys(fields);
      const valid = fc
        .record(fields, { requiredKeys: names.filter((n) => !n.endsWith('?')) })
        .map((body) => Object.fromEntries(Object.entries(body).map(([k, v]) => [k.replace(/\?$/, ''), v])));
      const mutated = fc
        .tuple(
          valid,
          fc.constantFrom(...names.map((n) => n.replace(/\?$/, '')), 'extra'),
          fc.oneof(anyJson, fc.constant(undefined)),
        )
        .map(([body, key, value]) => ({ ...body, [key]: value }));
      return fc.oneof(
        { weight: 3, arbitrary: valid },
        { weight: 4, arbitrary: mutated },
        {
          weight: 1,
          arbitrary: fc.dictionary(fc.oneof(fc.constantFrom(...names), fc.string()), anyJson, { maxKeys: 4 }),
        },
        { weight: 1, arbitrary: anyJson },
      );
    };
    const email = fc.oneof(
      fc.emailAddress(),
      fc.constantFrom('a@b', 'x@example.com', ' Y@Example.com ', `${'a'.repeat(250)}@example.com`, 'not an email'),
    );

    const endpoints: {
      name: string;
      method: 'post' | 'put' | 'patch';
      path: () => string;
      body: fc.Arbitrary<unknown>;
      who?: () => SignedIn | undefined;
      /** Tables a refused request may write by design, by its status. */
      mayWrite?: (status: number) => string[];
    }[] = [
      {
        name: 'checkout',
        method: 'post',
        path: () => '/api/store/checkout',
        body: bodyOf({
          productId: fc.oneof({ weight: 4, arbitrary: fc.constant('PRODUCT') }, fc.uuid(), fc.string()),
          'quantity?': fc.oneof(
            { weight: 4, arbitrary: fc.integer({ min: 1, max: 12 }) },
            fc.integer({ min: -5, max: 200 }),
            fc.double(),
          ),
          'team?': fc.boolean(),
          'coupon?': fc.oneof(fc.constantFrom('WELCOME10', 'welcome10', ' WELCOME10 ', 'NOPE'), fc.string()),
          'ppp?': fc.boolean(),
          'upgradeFrom?': fc.oneof(fc.uuid(), fc.constant('PURCHASE')),
          email,
        }),
        who: () => undefined,
        // A well-formed start is counted against the checkout limits before anything else, refused or not.
        mayWrite: () => ['rate_limit_hits'],
      },
      // A well-formed offer is counted against the transfer limits first, refused or not.
      {
        name: 'transfer',
        method: 'post',
        path: () => `/api/store/purchases/${purchaseId}/transfer`,
        body: bodyOf({ email }),
        mayWrite: () => ['rate_limit_hits'],
      },
      {
        name: 'comment',
        method: 'post',
        path: () => `/api/store/lessons/${lessonId}/comments`,
        body: bodyOf({
          text: fc.oneof(
            { weight: 4, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 200 }) },
            fc.string({ maxLength: 20_000 }),
          ),
        }),
        // A comment past the minute's limit is counted (that is how the limit holds).
        mayWrite: (status) => (status === 429 ? ['rate_limit_hits'] : []),
      },
      {
        name: 'comment edit',
        method: 'patch',
        path: () => `/api/store/comments/${commentId}`,
        body: bodyOf({
          text: fc.oneof(
            { weight: 4, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 200 }) },
            fc.string({ maxLength: 20_000 }),
          ),
        }),
      },
      {
        name: 'bookmark',
        method: 'put',
        path: () => `/api/store/bookmarks/${lessonId}`,
        body: bodyOf({
          'course?': fc.oneof(
            fc.constant(null),
            fc.record({
              slug: fc.oneof(fc.constant(null), fc.constant('COURSE'), fc.string()),
              title: fc.string({ unit: 'binary', maxLength: 400 }),
            }),
          ),
        }),
      },
      {
        name: 'progress',
        method: 'put',
        path: () => `/api/store/progress/lessons/${lessonId}`,
        body: bodyOf({ 'course?': fc.oneof({ weight: 3, arbitrary: fc.constant('COURSE') }, fc.string()) }),
      },
      { name: 'invite redeem', method: 'post', path: () => `/api/store/invites/${teamCouponId}/redeem`, body: anyJson },
      { name: 'team claim', method: 'post', path: () => `/api/store/teams/${teamCouponId}/claim`, body: anyJson },
      {
        name: 'sign-in request',
        method: 'post',
        path: () => '/api/store/auth/email',
        body: bodyOf({
          email,
          'redirectTo?': fc.oneof(
            fc.constantFrom('/learn', 'https://evil.example', '//evil.example', 'javascript:alert(1)'),
            fc.string(),
          ),
        }),
        who: () => undefined,
        // A request over the limit is counted (that is how the limit holds); a malformed one writes nothing.
        mayWrite: (status) => (status === 429 ? ['rate_limit_hits'] : []),
      },
      {
        name: 'sign-in consume',
        method: 'post',
        path: () => '/api/store/auth/email/consume',
        body: bodyOf({ email, token: fc.string() }),
        who: () => undefined,
      },
      {
        name: 'prefs',
        method: 'put',
        path: () => '/api/store/prefs',
        body: bodyOf({
          type: fc.constantFrom('global', 'local', 'other'),
          'resourceId?': fc.oneof({ weight: 3, arbitrary: fc.constant('LESSON') }, fc.uuid()),
          fields: fc.dictionary(fc.string({ unit: 'binary' }), anyJson, { maxKeys: 5 }),
        }),
      },
      {
        name: 'device code entry',
        method: 'post',
        path: () => '/api/store/device',
        body: bodyOf({ userCode: fc.oneof(fc.constant('BCDF-GHJK'), fc.string()) }),
        // Wrong codes are counted against the rate limit (docs/domain.md §10): that is the point of refusing them.
        mayWrite: () => ['rate_limit_hits'],
      },
    ];

    /** The placeholders above become the fixture's real ids, so the valid-looking bodies reach the services. */
    const withIds = (value: unknown): unknown =>
      JSON.parse(
        JSON.stringify(value ?? null)
          .replaceAll('"PRODUCT"', `"${product.id}"`)
          .replaceAll('"PURCHASE"', `"${purchaseId}"`)
          .replaceAll('"LESSON"', `"${lessonId}"`)
          .replaceAll('"COURSE"', `"${courseSlug}"`),
      );

    for (const endpoint of endpoints) {
      it(`${endpoint.method.toUpperCase()} ${endpoint.name} answers 2xx or 4xx to any JSON body`, async () => {
        await fc.assert(
          fc.asyncProperty(endpoint.body, async (raw) => {
            const body = withIds(raw);
            const who = endpoint.who ? endpoint.who() : learner;
            await expectSafe(
              () =>
                as(who, request(app)[endpoint.method](endpoint.path()))
                  .set('Content-Type', 'application/json')
                  .send(JSON.stringify(body)),
              { endpoint: endpoint.name, body },
              endpoint.mayWrite,
            );
          }),
          { numRuns: RUNS },
        );
      });
    }

    it('GET quote answers 2xx or 4xx to any query', async () => {
      const query = fc.dictionary(
        fc.oneof(fc.constantFrom('quantity', 'team', 'coupon', 'country', 'ppp', 'upgradeFrom'), fc.string()),
        fc.oneof(
          anyString,
          fc.integer().map(String),
          fc.constantFrom('true', 'false', '1', '0', 'US', 'in', 'WELCOME10', UUID),
        ),
        { maxKeys: 5 },
      );
      await fc.assert(
        fc.asyncProperty(query, sometimes(fc.constantFrom('quantity', 'coupon', 'country')), async (params, twice) => {
          const search = new URLSearchParams(params);
          if (twice) search.append(twice, '2');
          // A quote naming a coupon code may write a coupon-lookup count: a code that does not apply is counted,
          // and so is every code from a network suspect after its misses; a code that applies on a clean one is not.
          await expectSafe(
            () => as(learner, request(app).get(`/api/store/products/${product.id}/quote?${search.toString()}`)),
            params,
            () => ['rate_limit_hits'],
          );
        }),
        { numRuns: RUNS },
      );
    });

    it('answers 4xx, never 5xx, to bodies that are not JSON or a path id that is not an id', async () => {
      const raw = fc.oneof(
        fc.string({ unit: 'binary' }),
        fc.constantFrom(
          '{',
          '{"a":',
          'null',
          '1',
          '"x"',
          '[]',
          '\u0000',
          '{"__proto__":{"x":1}}',
          '{"constructor":{"prototype":{}}}',
        ),
      );
      const paths = [
        '/api/store/checkout',
        `/api/store/lessons/${lessonId}/comments`,
        '/api/store/auth/email',
        `/api/store/purchases/${purchaseId}/transfer`,
      ];
      await fc.assert(
        fc.asyncProperty(raw, fc.constantFrom(...paths), async (body, path) => {
          await expectSafe(
            () => as(learner, request(app).post(path)).set('Content-Type', 'application/json').send(body),
            { path, body },
          );
        }),
        { numRuns: RUNS },
      );
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(fc.string({ minLength: 1 }), fc.uuid()),
          fc.constantFrom(
            'invites/ID/redeem',
            'progress/lessons/ID',
            'bookmarks/ID',
            'purchases/ID/transfer',
            'transfers/ID/accept',
          ),
          async (id, template) => {
            const path = `/api/store/${template.replace('ID', encodeURIComponent(id))}`;
            const method = template.startsWith('progress') || template.startsWith('bookmarks') ? 'put' : 'post';
            await expectSafe(() => as(learner, request(app)[method](path)).send({}), { path });
          },
        ),
        { numRuns: RUNS },
      );
    });

    it('refuses JSON nested more than 64 levels deep, anywhere in a body, as invalid JSON (never 500)', async () => {
      const targets = [
        ...endpoints.map(({ name, method, path, who }) => ({ name, method, path, who: who ?? (() => learner) })),
        {
          name: 'console user edit',
          method: 'put' as const,
          path: () => `/api/admin/users/${learner.user.id}`,
          who: () => admin,
        },
      ];
      const where = fc.constantFrom('top', 'field', 'array');
      const field = fc.constantFrom('email', 'text', 'fields', 'course', 'userCode', 'productId', 'name');
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...targets),
          deepJson(20_000),
          where,
          field,
          async (target, deep, at, name) => {
            const body = at === 'top' ? deep : at === 'field' ? `{${JSON.stringify(name)}:${deep}}` : `[1,${deep}]`;
            const answer = await expectSafe(
              () =>
                as(target.who(), request(app)[target.method](target.path()))
                  .set('Content-Type', 'application/json')
                  .send(body),
              { endpoint: target.name, at, name, body: body.slice(0, 40) },
            );
            expect(answer.status).toBe(400);
            expect(answer.body.code).toBe('invalid-json');
          },
        ),
        { numRuns: RUNS },
      );
    });

    it('GET lists answer 2xx or 4xx to any query string, prototype names and deep JSON included', async () => {
      const paths = [
        '/api/store/products',
        '/api/store/purchases',
        '/api/store/teams',
        '/api/store/learning',
        '/api/store/bookmarks',
        '/api/store/devices',
        '/api/store/prefs',
        '/api/store/me',
        `/api/store/lessons/${lessonId}/comments`,
        `/api/store/courses/${courseSlug}`,
      ];
      const key = fc.oneof(
        fc.constantFrom('filter', 'sort', 'range', 'q', 'page', 'type', 'resourceId', 'course'),
        protoKey,
        fc.string(),
      );
      // Past the 64 levels the API takes, yet inside Node's own 16 KB limit on a request's head: longer URLs are
      // refused by the HTTP parser (431) before they reach the app, which is not what this property is about.
      const value = fc.oneof(anyString, protoJson, fc.constantFrom('global', 'local', UUID, '[0,9]'), deepJson(200));
      const queries = fc
        .array(fc.tuple(key, value), { maxLength: 5 })
        .filter((pairs) => new URLSearchParams(pairs).toString().length < 12_000);
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...paths), queries, async (path, pairs) => {
          const search = new URLSearchParams();
          for (const [k, v] of pairs) search.append(k, v);
          await expectSafe(() => as(learner, request(app).get(`${path}?${search.toString()}`)), {
            path,
            query: search.toString().slice(0, 300),
          });
        }),
        { numRuns: RUNS },
      );
    });
  });

  describe('the Stripe webhook', () => {
    it('answers 400 or 404, never 5xx, under any spelling of its path and to any body', async () => {
      const canonical = '/api/webhooks/stripe';
      const spelling = fc
        .tuple(
          fc.array(fc.boolean(), { minLength: canonical.length, maxLength: canonical.length }),
          fc.constantFrom('', '', '/', '//', '?x=1', '/?a=b', '%2F', '.json'),
        )
        .map(([upper, tail]) => [...canonical].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('') + tail);
      const json = (arb: fc.Arbitrary<unknown>) => arb.map((v) => JSON.stringify(v));
      const body = fc.oneof(json(anyJson), fc.string({ unit: 'binary' }), deepJson(5_000), protoJson);
      const signature = fc.oneof(
        fc.constant(undefined),
        fc.string({ unit: fc.constantFrom(...'tv1=,0123456789abcdef ') }),
        fc.constantFrom('t=1,v1=00', 't=abc'),
      );
      await fc.assert(
        fc.asyncProperty(spelling, body, signature, fc.boolean(), async (path, raw, sig, configured) => {
          const answer = await expectSafe(
            () => {
              const post = request(configured ? stripeApp : app)
                .post(path)
                .set('Content-Type', 'application/json');
              return (sig === undefined ? post : post.set('Stripe-Signature', sig)).send(raw);
            },
            { path, sig, configured, raw: raw.slice(0, 80) },
          );
          expect([400, 404], `${path} → ${answer.status}`).toContain(answer.status);
          const routed = /^\/api\/webhooks\/stripe\/?(\?.*)?$/i.test(path);
          // Elsewhere the body is parsed as any API body is (so it may be refused as invalid JSON before the 404).
          if (routed)
            expect(answer.body.code, path).toBe(configured ? 'webhook-signature-invalid' : 'payments-not-configured');
          else expect(['route-not-found', 'invalid-json'], path).toContain(answer.body.code);
        }),
        { numRuns: RUNS },
      );
    });
  });

  describe('console writes that meet database constraints', () => {
    let productIds: string[];
    let contentIds: string[];
    beforeAll(async () => {
      productIds = await Promise.all(
        ['A', 'B', 'C'].map(async (n) => (await createProduct(db(), { name: `Console Fuzz ${n}` })).id),
      );
      const { course, lessons } = await createCourse(db(), {
        title: 'Console Fuzz Course',
        modules: [{ title: 'M', sections: [{ title: 'S', lessons: [{ title: 'L', body: '<p>l</p>' }] }] }],
      });
      contentIds = [course.id, lessons[0]!.id];
    });

    it('POST prices, upgrades and product content answer 2xx or 4xx, and say conflicts in words', async () => {
      const productId = fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...productIds) },
        fc.uuid(),
        fc.constant(UUID),
      );
      const write = fc.oneof(
        fc.record({
          resource: fc.constant('prices'),
          body: fc.record({
            productId,
            unitAmount: fc.integer({ min: -1, max: 10_000 }),
            currency: fc.constantFrom('usd', 'eur', 'US'),
          }),
        }),
        fc.record({
          resource: fc.constant('upgradable-products'),
          body: fc.record({ upgradableFromId: productId, upgradableToId: productId }),
        }),
        fc.record({
          resource: fc.constant('product-content-resources'),
          body: fc.record({
            productId,
            resourceId: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...contentIds) }, fc.uuid()),
            position: fc.oneof(fc.integer({ min: 0, max: 10 }), fc.integer(), fc.double()),
          }),
        }),
      );
      await fc.assert(
        fc.asyncProperty(write, async ({ resource, body }) => {
          const answer = await expectSafe(() => as(admin, request(app).post(`/api/admin/${resource}`)).send(body), {
            resource,
            body,
          });
          expect([201, 400, 404, 409], JSON.stringify(answer.body)).toContain(answer.status);
        }),
        { numRuns: RUNS },
      );
    });
  });
});
