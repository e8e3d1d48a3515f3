import { Writable } from 'node:stream';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/src/app';
import { toAppError } from '../../api/src/http/errors';
import { createProduct } from '../../seeds/factories';
import { testApp, testConfig, testDeps } from '../support/app';
import { as, signedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { signed, standInEnv, startStripeStandIn, type StandIn } from '../support/stripe-stand-in';

describe('request handling', () => {
  const database = useTestDatabase();

  it('gives every response a request id, keeping a sane one from the caller', async () => {
    const app = testApp(database().db);
    const fresh = await request(app).get('/api/health');
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await request(app).get('/api/health').set('X-Request-Id', 'abc-123');
    expect(kept.headers['x-request-id']).toBe('abc-123');
    const replaced = await request(app).get('/api/health').set('X-Request-Id', 'bad id with spaces');
    expect(replaced.headers['x-request-id']).not.toBe('bad id with spaces');
  });

  it('answers unknown API paths with a JSON 404 in the error model', async () => {
    const response = await request(testApp(database().db)).get('/api/nope').set('X-Request-Id', 'req-1');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ code: 'route-not-found', message: 'No such endpoint.', requestId: 'req-1' });
  });

  it('answers a wrong method on a known path with 405', async () => {
    const response = await request(testApp(database().db)).delete('/api/health');
    expect(response.status).toBe(405);
  });

  it('logs a response that failed after it started, but not a client that went away', () => {
    const lines: string[] = [];
    const logger = pino(
      { level: 'error' },
      new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) }),
    );
    const app = createApp({ ...testDeps(database().db), logger });
    const gone = Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
    app.emit('error', gone);
    app.emit('error', Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    expect(lines).toEqual([]);
    app.emit('error', new Error('cursor lost'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: 'response failed', err: { message: 'cursor lost' } });
  });
});

describe('odd input answers 4xx, never 500 (security issue 14)', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let stripe: StandIn;
  let app: ReturnType<typeof testApp>;
  beforeAll(async () => {
    stripe = await startStripeStandIn();
    app = testApp(db(), { config: testConfig(standInEnv(stripe)) });
  });
  afterAll(() => stripe?.close());

  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it('refuses 10,000 nested arrays in a JSON body as invalid JSON, wherever the body goes', async () => {
    const learner = await signedIn(db());
    const admin = await signedIn(db(), ['admin']);
    const sends = [
      as(learner, request(app).put('/api/store/prefs'))
        .set('Content-Type', 'application/json')
        .send(`{"type":"global","fields":{"a":${nested(10_000)}}}`),
      as(admin, request(app).put(`/api/admin/users/${learner.user.id}`))
        .set('Content-Type', 'application/json')
        .send(`{"name":${nested(10_000)}}`),
      as(learner, request(app).post('/api/store/checkout'))
        .set('Content-Type', 'application/json')
        .send(nested(10_000)),
      as(learner, request(app).put('/api/store/prefs'))
        .set('Content-Type', 'application/json')
        .send(`{"type":"global","fields":${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}}`),
    ];
    for (const answer of await Promise.all(sends)) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body).toMatchObject({ code: 'invalid-json', message: expect.stringContaining('levels deep') });
    }
    // A list filter nesting that deep is refused too, as a wrong parameter.
    const filter = await as(
      admin,
      request(app).get(`/api/admin/users?filter=${encodeURIComponent(`{"id":${nested(2_000)}}`)}`),
    );
    expect(filter.status).toBe(400);
    expect(filter.body.errors).toEqual({ filter: expect.stringContaining('levels deep') });
    // Ordinary nesting still goes through.
    const prefs = await as(learner, request(app).put('/api/store/prefs')).send({
      type: 'global',
      fields: { a: JSON.parse(nested(20)) },
    });
    expect(prefs.status).toBe(200);
  });

  it('answers the Stripe webhook under any spelling the router takes (trailing slash, other case) as the webhook', async () => {
    for (const path of [
      '/api/webhooks/stripe',
      '/api/webhooks/stripe/',
      '/API/Webhooks/Stripe',
      '/api/WEBHOOKS/stripe/',
    ]) {
      const unsigned = await request(app)
        .post(path)
        .set('Content-Type', 'application/json')
        .set('Stripe-Signature', 't=1,v1=bad')
        .send('{"id":"evt_1"}');
      expect(unsigned.status, `${path}: ${JSON.stringify(unsigned.body)}`).toBe(400);
      expect(unsigned.body.code, path).toBe('webhook-signature-invalid');
      // The raw body reaches the signature check byte for byte: a signed event is accepted.
      const { payload, signature } = signed(
        stripe.event('customer.created', { id: 'cus_spelling', object: 'customer' }),
      );
      const accepted = await request(app)
        .post(path)
        .set('Content-Type', 'application/json')
        .set('Stripe-Signature', signature)
        .send(payload);
      expect(accepted.status, `${path}: ${JSON.stringify(accepted.body)}`).toBe(200);
      expect(accepted.body).toMatchObject({ received: true });
    }
    const elsewhere = await request(app)
      .post('/api/webhooks/stripe//')
      .set('Content-Type', 'application/json')
      .send('{}');
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.code).toBe('route-not-found');
  });

  it('treats a list filter named __proto__ as an unknown field, like constructor or toString', async () => {
    const admin = await signedIn(db(), ['admin']);
    for (const query of [
      'filter={"__proto__":1}',
      'filter={"__proto__":{"id":"x"}}',
      'filter={"constructor":1}',
      'filter={"toString_gte":1}',
      'sort=["toString","ASC"]',
      'sort=["__proto__","ASC"]',
      'filter=[]',
    ]) {
      const answer = await as(admin, request(app).get(`/api/admin/users?${encodeURI(query)}`));
      expect(answer.status, `${query}: ${JSON.stringify(answer.body)}`).toBe(400);
      expect(answer.body.code).toBe('validation-failed');
    }
  });

  it('says a conflict in words, never naming a database constraint, table or column', async () => {
    const admin = await signedIn(db(), ['admin']);
    // A foreign-key violation through the console: a price for a product that does not exist.
    const price = await as(admin, request(app).post('/api/admin/prices')).send({
      productId: '00000000-0000-4000-8000-000000000000',
      unitAmount: 100,
    });
    expect(price.status).toBe(409);
    expect(price.body).toMatchObject({ code: 'reference-conflict' });
    expect(price.body.message).not.toMatch(/_foreign|_fkey|prices|product_id/);

    // A unique and a check violation as PostgreSQL raises them, through the one mapping.
    const product = await createProduct(db(), { name: 'Constraint Words', key: 'constraint-words' });
    const raised = async (work: () => Promise<unknown>) =>
      work().then(
        () => expect.fail('no violation'),
        (error: unknown) => toAppError(error)!,
      );
    const unique = await raised(() => db()('products').insert({ name: 'Copy', key: product.key }));
    expect(unique.status).toBe(409);
    expect(unique.message).toBe('This conflicts with an existing record.');
    const check = await raised(() => db()('products').where({ id: product.id }).update({ quantityAvailable: -5 }));
    expect(check.status).toBe(400);
    expect(check.message).toBe('A value is outside what is allowed.');
    const missing = await raised(() => db()('products').insert({ name: null }));
    expect(missing.message).not.toContain('_');
  });
});
