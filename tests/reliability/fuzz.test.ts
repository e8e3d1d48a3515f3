import fc from 'fast-check';
import request, { type Response } from 'supertest';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { ADMIN_RESOURCES } from '../../api/src/admin/resources';
import { Product } from '../../api/src/db/models';
import { createServices, type Services } from '../../api/src/services';
import { createCourse, createProduct, createPurchase } from '../../seeds/factories';
import { runSeeds } from '../../seeds/run';
import { testDeps } from '../support/app';
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
const anyString = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('', ' ', '[]', '{}', 'null', '["id"]', '[0,1e400]', '\u0000', '%00', '[', '"'));
const UUID = '00000000-0000-4000-8000-000000000000';
/** A value one time in ten, undefined otherwise. */
const sometimes = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });

describe('fuzzing', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let services: Services;
  let app: ReturnType<ReturnType<typeof createApp>['callback']>;
  let admin: SignedIn;
  let learner: SignedIn;
  let checksum: () => Promise<Record<string, string>>;
  /** The statuses one property saw, printed after it: a run that never gets past validation proves little. */
  let statuses: Record<string, number> = {};
  beforeEach(() => {
    statuses = {};
  });
  afterEach((context) => {
    console.info(`${context.task.name}: statuses`, statuses);
  });

  beforeAll(async () => {
    const deps = testDeps(db());
    services = createServices(deps);
    app = createApp(deps, { services }).callback();
    await runSeeds(db(), { demo: true });
    admin = await signedIn(db(), ['admin']);
    learner = await signedIn(db(), ['learner']);

    // One query that sums up every row of every table (the knex bookkeeping aside; and a session's last_seen_at,
    // which signing a request in refreshes now and then whatever the request does).
    const tables = (
      await db().raw<{ rows: { table_name: string }[] }>(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT LIKE 'knex_%' ORDER BY table_name`,
      )
    ).rows.map((r) => r.table_name);
    const sql = `SELECT ${tables.map((t) => `(SELECT md5(coalesce(string_agg(r, '|' ORDER BY r), '')) FROM (SELECT (to_jsonb(x) - 'last_seen_at')::text AS r FROM "${t}" x) rows) AS "${t}"`).join(', ')}`;
    checksum = async () => (await db().raw<{ rows: Record<string, string>[] }>(sql)).rows[0]!;
  });

  /** An answer we accept: 2xx, or 4xx with a string code and a message; a refused request left every table as it was. */
  async function expectSafe(send: () => Promise<Response>, what: unknown, mayWrite: (status: number) => string[] = () => []): Promise<Response> {
    await services.outbox.flush(); // an email of an earlier accepted request, being sent, is not this request's write
    const before = await checksum();
    const answer = await send();
    const seen = `${answer.status}${answer.body?.errors ? ` ${Object.keys(answer.body.errors).join(',')}` : ''}`;
    statuses[seen] = (statuses[seen] ?? 0) + 1;
    const context = `${JSON.stringify(what)?.slice(0, 500)} → ${answer.status} ${JSON.stringify(answer.body)?.slice(0, 300)}`;
    expect(answer.status, context).toBeLessThan(500);
    if (answer.status >= 400) {
      expect(typeof answer.body.code, context).toBe('string');
      expect(answer.body.code.length, context).toBeGreaterThan(0);
      expect(typeof answer.body.message, context).toBe('string');
      const after = await checksum();
      const changed = Object.keys(before).filter((table) => before[table] !== after[table] && !mayWrite(answer.status).includes(table));
      expect(changed, `a refused request wrote something: ${context}`).toEqual([]);
    }
    return answer;
  }

  describe('admin list parameters (sort, range, filter)', () => {
    const resources = ['purchases', 'users', 'products', 'coupons', 'content-resources', 'merchant-charges', 'audit-logs'];

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
          enum: fc.oneof(fc.constantFrom('Valid', 'Refunded', 'active', 'archived', 'lesson', 'usd'), fc.string({ maxLength: 20 })),
          role: fc.constantFrom('admin', 'support', 'finance', 'learner', 'nobody'),
          number: fc.oneof(fc.integer(), fc.double({ noNaN: true })),
          date: fc.oneof(fc.date({ min: new Date('1900-01-01'), max: new Date('2200-01-01'), noInvalidDate: true }).map((d) => d.toISOString()), fc.constantFrom('2026-01-01', '2026-02-30', '0001-01-01', '9999-12-31', '2026-01-01T00:00:00+14:00')),
          boolean: fc.boolean(),
        };
        const fitting = Object.entries(resource.filterable).map(([field, kind]) => {
          const value = byKind[kind] ?? anyJson;
          const keys = kind === 'number' || kind === 'date' ? [field, `${field}_gte`, `${field}_lte`] : [field];
          return fc.tuple(fc.constantFrom(...keys), fc.oneof({ weight: 4, arbitrary: value }, { weight: 1, arbitrary: fc.array(value, { maxLength: 3 }) }, { weight: 1, arbitrary: anyJson }));
        });
        if (resource.searchable.length) fitting.push(fc.tuple(fc.constant('q'), fc.oneof(fc.string({ unit: 'binary', maxLength: 30 }), fc.constantFrom('%', '_', '\\', "'", '%_%'))));
        const filterEntry = fc.oneof({ weight: 5, arbitrary: fc.oneof(...fitting) }, { weight: 1, arbitrary: fc.tuple(fc.oneof(fc.constantFrom(...fields), fc.string()), anyJson) });
        const filter = fc.oneof(
          { weight: 6, arbitrary: json(fc.array(filterEntry, { maxLength: 4 }).map((entries) => Object.fromEntries(entries))) },
          { weight: 1, arbitrary: anyString },
          { weight: 1, arbitrary: json(anyJson) },
        );
        const sort = fc.oneof(
          { weight: 6, arbitrary: json(fc.tuple(fc.constantFrom(...resource.sortable), fc.constantFrom('ASC', 'DESC', 'asc', 'desc'))) },
          { weight: 1, arbitrary: json(fc.tuple(fc.oneof(fc.constantFrom(...fields), fc.string()), fc.oneof(fc.constantFrom('ASC', 'DESC', 'Asc'), anyJson))) },
          { weight: 1, arbitrary: anyString },
          { weight: 1, arbitrary: json(anyJson) },
        );
        const range = fc.oneof(
          { weight: 6, arbitrary: json(fc.tuple(fc.nat(2_000), fc.nat(499)).map(([start, size]) => [start, start + size])) },
          { weight: 1, arbitrary: json(fc.tuple(fc.integer({ min: -10, max: 2 ** 53 }), fc.integer({ min: -10, max: 2 ** 53 }))) },
          { weight: 1, arbitrary: json(fc.tuple(fc.double(), fc.double())) },
          { weight: 1, arbitrary: anyString },
          { weight: 1, arbitrary: json(anyJson) },
        );
        const params = fc.record({ sort, range, filter }, { requiredKeys: [] });
        // A parameter given twice (an array in the query) as well.
        const repeated = sometimes(fc.constantFrom('sort', 'range', 'filter'));

        await fc.assert(
          fc.asyncProperty(params, repeated, async (query, twice) => {
            const search = new URLSearchParams();
            for (const [key, value] of Object.entries(query)) search.append(key, value as string);
            if (twice) search.append(twice, '[]');
            const answer = await expectSafe(() => as(admin, request(app).get(`/api/admin/${name}?${search.toString()}`)), query);
            if (answer.status === 200) expect(answer.headers['content-range'], JSON.stringify(query)).toMatch(new RegExp(`^${name} \\d+-\\d+/\\d+$|^${name} \\*/\\d+$`));
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
      const { course, lessons } = await createCourse(db(), { title: 'Fuzzed Course', modules: [{ title: 'M', sections: [{ title: 'S', lessons: [{ title: 'L1', body: '<p>1</p>' }, { title: 'L2', body: '<p>2</p>' }] }] }] }, { products: [product] });
      lessonId = lessons[1]!.id;
      courseSlug = course.fields.slug!;
      await createPurchase(db(), { user: learner.user, product });
      const other = await createProduct(db(), { name: 'Transferable Fuzz Course', unitAmount: 4000 });
      purchaseId = await boughtWithTestProvider(services, db(), { buyer: learner.user, productId: other.id });
      const team = await boughtWithTestProvider(services, db(), { buyer: learner.user, productId: (await createProduct(db(), { name: 'Team Fuzz Course' })).id, quantity: 3 });
      teamCouponId = (await db()('purchases').where({ id: team }).first('bulkCouponId')).bulkCouponId;
      commentId = (await as(learner, request(app).post(`/api/store/lessons/${lessonId}/comments`)).send({ text: 'a first comment' })).body.id ?? (await db()('comments').first('id')).id;
    });

    /**
     * A body: mostly a valid one, or a valid one with one field changed to any JSON, removed, or joined by a stranger;
     * sometimes an object of the endpoint's field names holding any JSON, or any JSON at all.
     */
    const bodyOf = (fields: Record<string, fc.Arbitrary<unknown>>) => {
      const names = Object.keys(fields);
      const valid = fc.record(fields, { requiredKeys: names.filter((n) => !n.endsWith('?')) }).map((body) => Object.fromEntries(Object.entries(body).map(([k, v]) => [k.replace(/\?$/, ''), v])));
      const mutated = fc.tuple(valid, fc.constantFrom(...names.map((n) => n.replace(/\?$/, '')), 'extra'), fc.oneof(anyJson, fc.constant(undefined))).map(([body, key, value]) => ({ ...body, [key]: value }));
      return fc.oneof(
        { weight: 3, arbitrary: valid },
        { weight: 4, arbitrary: mutated },
        { weight: 1, arbitrary: fc.dictionary(fc.oneof(fc.constantFrom(...names), fc.string()), anyJson, { maxKeys: 4 }) },
        { weight: 1, arbitrary: anyJson },
      );
    };
    const email = fc.oneof(fc.emailAddress(), fc.constantFrom('a@b', 'x@example.com', ' Y@Example.com ', `${'a'.repeat(250)}@example.com`, 'not an email'));

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
          'quantity?': fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 12 }) }, fc.integer({ min: -5, max: 200 }), fc.double()),
          'team?': fc.boolean(),
          'coupon?': fc.oneof(fc.constantFrom('WELCOME10', 'welcome10', ' WELCOME10 ', 'NOPE'), fc.string()),
          'ppp?': fc.boolean(),
          'upgradeFrom?': fc.oneof(fc.uuid(), fc.constant('PURCHASE')),
          email,
        }),
        who: () => undefined,
      },
      { name: 'transfer', method: 'post', path: () => `/api/store/purchases/${purchaseId}/transfer`, body: bodyOf({ email }) },
      { name: 'comment', method: 'post', path: () => `/api/store/lessons/${lessonId}/comments`, body: bodyOf({ text: fc.oneof({ weight: 4, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 200 }) }, fc.string({ maxLength: 20_000 })) }) },
      { name: 'comment edit', method: 'patch', path: () => `/api/store/comments/${commentId}`, body: bodyOf({ text: fc.oneof({ weight: 4, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 200 }) }, fc.string({ maxLength: 20_000 })) }) },
      { name: 'bookmark', method: 'put', path: () => `/api/store/bookmarks/${lessonId}`, body: bodyOf({ 'course?': fc.oneof(fc.constant(null), fc.record({ slug: fc.oneof(fc.constant(null), fc.constant('COURSE'), fc.string()), title: fc.string({ unit: 'binary', maxLength: 400 }) })) }) },
      { name: 'progress', method: 'put', path: () => `/api/store/progress/lessons/${lessonId}`, body: bodyOf({ 'course?': fc.oneof({ weight: 3, arbitrary: fc.constant('COURSE') }, fc.string()) }) },
      { name: 'invite redeem', method: 'post', path: () => `/api/store/invites/${teamCouponId}/redeem`, body: anyJson },
      { name: 'team claim', method: 'post', path: () => `/api/store/teams/${teamCouponId}/claim`, body: anyJson },
      {
        name: 'sign-in request',
        method: 'post',
        path: () => '/api/store/auth/email',
        body: bodyOf({ email, 'redirectTo?': fc.oneof(fc.constantFrom('/learn', 'https://evil.example', '//evil.example', 'javascript:alert(1)'), fc.string()) }),
        who: () => undefined,
        // A request over the limit is counted (that is how the limit holds); a malformed one writes nothing.
        mayWrite: (status) => (status === 429 ? ['rate_limit_hits'] : []),
      },
      { name: 'sign-in consume', method: 'post', path: () => '/api/store/auth/email/consume', body: bodyOf({ email, token: fc.string() }), who: () => undefined },
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
        // Wrong codes are counted against the rate limit (DOMAIN §10): that is the point of refusing them.
        mayWrite: () => ['rate_limit_hits'],
      },
    ];

    /** The placeholders above become the fixture's real ids, so the valid-looking bodies reach the services. */
    const withIds = (value: unknown): unknown =>
      JSON.parse(JSON.stringify(value ?? null).replaceAll('"PRODUCT"', `"${product.id}"`).replaceAll('"PURCHASE"', `"${purchaseId}"`).replaceAll('"LESSON"', `"${lessonId}"`).replaceAll('"COURSE"', `"${courseSlug}"`));

    for (const endpoint of endpoints) {
      it(`${endpoint.method.toUpperCase()} ${endpoint.name} answers 2xx or 4xx to any JSON body`, async () => {
        await fc.assert(
          fc.asyncProperty(endpoint.body, async (raw) => {
            const body = withIds(raw);
            const who = endpoint.who ? endpoint.who() : learner;
            await expectSafe(
              () => as(who, request(app)[endpoint.method](endpoint.path())).set('Content-Type', 'application/json').send(JSON.stringify(body)),
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
        fc.oneof(anyString, fc.integer().map(String), fc.constantFrom('true', 'false', '1', '0', 'US', 'in', 'WELCOME10', UUID)),
        { maxKeys: 5 },
      );
      await fc.assert(
        fc.asyncProperty(query, sometimes(fc.constantFrom('quantity', 'coupon', 'country')), async (params, twice) => {
          const search = new URLSearchParams(params);
          if (twice) search.append(twice, '2');
          await expectSafe(() => as(learner, request(app).get(`/api/store/products/${product.id}/quote?${search.toString()}`)), params);
        }),
        { numRuns: RUNS },
      );
    });

    it('answers 4xx, never 5xx, to bodies that are not JSON or a path id that is not an id', async () => {
      const raw = fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom('{', '{"a":', 'null', '1', '"x"', '[]', '\u0000', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}'));
      const paths = ['/api/store/checkout', `/api/store/lessons/${lessonId}/comments`, '/api/store/auth/email', `/api/store/purchases/${purchaseId}/transfer`];
      await fc.assert(
        fc.asyncProperty(raw, fc.constantFrom(...paths), async (body, path) => {
          await expectSafe(() => as(learner, request(app).post(path)).set('Content-Type', 'application/json').send(body), { path, body });
        }),
        { numRuns: RUNS },
      );
      await fc.assert(
        fc.asyncProperty(fc.oneof(fc.string({ minLength: 1 }), fc.uuid()), fc.constantFrom('invites/ID/redeem', 'progress/lessons/ID', 'bookmarks/ID', 'purchases/ID/transfer', 'transfers/ID/accept'), async (id, template) => {
          const path = `/api/store/${template.replace('ID', encodeURIComponent(id))}`;
          const method = template.startsWith('progress') || template.startsWith('bookmarks') ? 'put' : 'post';
          await expectSafe(() => as(learner, request(app)[method](path)).send({}), { path });
        }),
        { numRuns: RUNS },
      );
    });
  });
});
