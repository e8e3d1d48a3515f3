import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { TEST_CHECKOUT_PATH } from '../../api/src/payments/test-provider';
import { testApp, testConfig } from '../support/app';
import { useTestDatabase } from '../support/db';

/** Stripe keys that the app accepts; no request reaches Stripe in these tests. */
const STRIPE_ENV = {
  STRIPE_SECRET_KEY: 'sk_test_notused',
  STRIPE_WEBHOOK_SECRET: 'whsec_notused',
  STRIPE_API_URL: 'http://127.0.0.1:9',
};

describe('the built-in test payment provider', () => {
  const database = useTestDatabase();
  const db = () => database().db;

  /** An open checkout on the test provider's own table, as one made before Stripe was configured. */
  async function openTestCheckout(): Promise<string> {
    const identifier = `cs_test_${randomBytes(12).toString('hex')}`;
    await db()('testProviderSessions').insert({
      identifier,
      amount: 9900,
      currency: 'usd',
      description: 'A course',
      customerEmail: 'buyer@example.com',
      successUrl: 'http://localhost:3000/thanks',
      cancelUrl: 'http://localhost:3000/',
    });
    return identifier;
  }

  it('serves its checkout page when it is the provider (no Stripe keys), in production only when allowed', async () => {
    const identifier = await openTestCheckout();
    for (const config of [testConfig(), testConfig({ NODE_ENV: 'production', ALLOW_TEST_PAYMENTS: 'true' })]) {
      const page = await request(testApp(db(), { config })).get(`${TEST_CHECKOUT_PATH}/${identifier}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('This is the built-in test payment provider');
    }
  });

  it('is not there at all once Stripe is configured: its pages answer 404 route-not-found and pay nothing', async () => {
    const identifier = await openTestCheckout();
    const app = testApp(db(), { config: testConfig(STRIPE_ENV) });
    for (const [method, path] of [
      ['get', `${TEST_CHECKOUT_PATH}/${identifier}`],
      ['post', `${TEST_CHECKOUT_PATH}/${identifier}/pay`],
      ['post', `${TEST_CHECKOUT_PATH}/${identifier}/cancel`],
      ['get', '/test-provider'],
    ] as const) {
      const response = await request(app)[method](path);
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body.code, `${method} ${path}`).toBe('route-not-found');
    }
    const session = await db()('testProviderSessions').where({ identifier }).first();
    expect(session.status).toBe('open');
    expect(session.chargeIdentifier).toBeNull();
  });

  it("keeps the storefront's own paths with Stripe configured (only the provider's prefix is gone)", async () => {
    const app = testApp(db(), { config: testConfig(STRIPE_ENV) });
    expect((await request(app).get('/api/health')).status).toBe(200);
    const storefrontRoute = await request(app).get('/test-providers-guide');
    expect(storefrontRoute.body?.code).not.toBe('route-not-found');
  });
});
