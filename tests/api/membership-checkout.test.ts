import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../../api/src/catalog/models';
import { createProduct } from '../../seeds/factories';
import { testApp, testConfig } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { standInEnv, startStripeStandIn, type StandIn } from '../support/stripe-stand-in';

/** A membership is paid through its subscription, never sold as a one-time purchase (docs/domain.md §22). */
describe('a membership at the one-time checkout', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let stripe: StandIn;
  let membership: Product;
  let learner: SignedIn;

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    membership = await createProduct(db(), {
      name: 'All access refused',
      productType: 'membership',
      billingInterval: 'month',
      grantsWholeCatalog: true,
      unitAmount: 2900,
    });
    learner = await signedIn(db(), ['learner'], 'member-to-be@example.com');
  });
  afterAll(() => stripe?.close());

  it('is neither quoted nor started as a purchase, and nothing is written', async () => {
    const app = testApp(db());
    const quote = await request(app).get(`/api/store/products/${membership.id}/quote`);
    expect(quote.status).toBe(409);
    expect(quote.body.code).toBe('product-is-membership');

    const asGuest = await request(app)
      .post('/api/store/checkout')
      .send({ productId: membership.id, email: 'guest-member@example.com' });
    const asLearner = await as(learner, request(app).post('/api/store/checkout')).send({ productId: membership.id });
    for (const answer of [asGuest, asLearner]) {
      expect(answer.status).toBe(409);
      expect(answer.body.code).toBe('product-is-membership');
      expect(answer.body.message).toBe('All access refused is a membership: subscribe to it instead.');
    }
    expect(await db()('checkouts').where({ productId: membership.id }).count({ n: '*' })).toEqual([{ n: 0 }]);
    expect(await db()('purchases').where({ productId: membership.id }).count({ n: '*' })).toEqual([{ n: 0 }]);

    // The way that works: subscribing, with the built-in test provider. The account menu links the list after.
    expect((await as(learner, request(app).get('/api/store/me'))).body.hasSubscriptions).toBe(false);
    const subscribe = await as(learner, request(app).post('/api/store/subscriptions')).send({
      productId: membership.id,
    });
    expect(subscribe.status).toBe(201);
    const { pathname } = new URL(subscribe.body.data.url);
    expect((await request(app).post(`${pathname}/pay`)).status).toBe(303);
    expect((await as(learner, request(app).get('/api/store/me'))).body.hasSubscriptions).toBe(true);
    const list = await as(learner, request(app).get('/api/store/subscriptions'));
    expect(list.body.data).toMatchObject([
      { productId: membership.id, productName: 'All access refused', productSlug: membership.slug, status: 'active' },
    ]);
    // The sales page tells the membership's terms, which the buy box shows instead of a one-time price.
    const page = await request(app).get(`/api/store/products/${membership.id}`);
    expect(page.body.membership).toEqual({
      interval: 'month',
      trialDays: 0,
      prices: [{ interval: 'month', unitAmount: 2900, currency: 'usd' }],
    });
  });

  it('with Stripe configured, subscribing opens Stripe Checkout in subscription mode', async () => {
    const app = testApp(db(), { config: testConfig(standInEnv(stripe)) });
    const other = await signedIn(db(), ['learner'], 'stripe-member-to-be@example.com');
    const answer = await as(other, request(app).post('/api/store/subscriptions')).send({ productId: membership.id });
    expect(answer.status).toBe(201);
    const sessionId = new URL(answer.body.data.url).pathname.split('/').at(-1)!;
    expect(stripe.objects.get(sessionId)).toMatchObject({ mode: 'subscription', amount_total: 2900 });
  });
});
