import request from 'supertest';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, createRevenueSplit } from '../../seeds/factories';
import { testApp, testConfig } from '../support/app';
import { sessionOfCheckout } from '../support/checkout';
import { useTestDatabase } from '../support/db';
import { deliverSigned, standInEnv, startStripeStandIn, type StandIn } from '../support/stripe-stand-in';

/**
 * A batch of webhook fulfilments beside everything else that settles the same checkouts (docs/domain.md §6.2): the
 * thank-you page and a duplicate delivery never deadlock with it, a checkout whose settlement fails fails alone, and
 * a slow settlement (a refund's call to Stripe) holds no other event's answer.
 */
describe('webhook fulfilments in batches, racing', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let stripe: StandIn;
  let app: ReturnType<typeof testApp>;

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    app = testApp(db(), { config: testConfig(standInEnv(stripe)) });
  });
  afterAll(() => stripe?.close());

  async function paidCheckout(productId: string, email: string) {
    const created = await request(app).post('/api/store/checkout').send({ productId, email });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const checkoutId = created.body.checkoutId as string;
    return { checkoutId, completed: stripe.pay(await sessionOfCheckout(db(), checkoutId)) };
  }

  async function course(name: string, quantityAvailable = -1) {
    const product = await createProduct(db(), { name, unitAmount: 5_000, quantityAvailable });
    await createRevenueSplit(db(), { productId: product.id, type: 'platform', percent: 1 });
    return product;
  }

  const purchasesOf = async (checkoutId: string) =>
    db()('purchases as p').join('checkouts as c', 'c.purchaseId', 'p.id').where('c.id', checkoutId).select('p.id');

  it('fulfils each checkout once while the thank-you page and duplicate deliveries race its batch', async () => {
    const products = [await course('Raced Course A'), await course('Raced Course B')];
    for (let round = 0; round < 10; round++) {
      const paid = [];
      // Most of them of one product: a batch holding it waits on any of its checkouts that another settlement holds.
      for (let i = 0; i < 8; i++)
        paid.push(await paidCheckout(products[i % 4 === 3 ? 1 : 0]!.id, `raced-${round}-${i}@example.com`));
      // Every event twice (two batches sharing checkouts), and every buyer back on the thank-you page
      // meanwhile, twice.
      const webhooks = [...paid, ...paid].map((p) => deliverSigned(app, p.completed));
      const pages = [...paid, ...paid].map((p) => request(app).get(`/api/store/checkouts/${p.checkoutId}`));
      const answers = await Promise.all([...webhooks, ...pages]);
      expect(
        answers.map((a) => a.status),
        JSON.stringify(answers.filter((a) => a.status !== 200).map((a) => a.body)),
      ).toEqual(answers.map(() => 200));
      for (const { checkoutId } of paid) expect(await purchasesOf(checkoutId)).toHaveLength(1);
    }
  });

  it("fails one checkout's settlement alone: the others of its batch are fulfilled once", async () => {
    const product = await course('Half Failing Course');
    const paid = [];
    for (let i = 0; i < 8; i++) paid.push(await paidCheckout(product.id, `halfway-${i}@example.com`));
    const bad = paid[4]!;
    // Its settlement throws inside the batch's transaction, after the batch's other writes.
    await db().raw(`
      CREATE FUNCTION refuse_settlement() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'settlement refused'; END $$;
      CREATE TRIGGER refuse_settlement BEFORE UPDATE ON checkouts FOR EACH ROW
      WHEN (NEW.id = '${bad.checkoutId}' AND NEW.status = 'fulfilled') EXECUTE FUNCTION refuse_settlement();`);
    try {
      const answers = await Promise.all(paid.map((p) => deliverSigned(app, p.completed)));
      expect(answers.map((a) => a.status)).toEqual(paid.map((p) => (p === bad ? 500 : 200)));
    } finally {
      await db().raw('DROP TRIGGER refuse_settlement ON checkouts; DROP FUNCTION refuse_settlement();');
    }
    for (const { checkoutId } of paid)
      expect(await purchasesOf(checkoutId)).toHaveLength(checkoutId === bad.checkoutId ? 0 : 1);
    const processed = await db()('merchantEvents')
      .whereIn(
        'identifier',
        paid.map((p) => p.completed.id),
      )
      .whereNotNull('processedAt')
      .pluck('identifier');
    expect(processed.sort()).toEqual(
      paid
        .filter((p) => p !== bad)
        .map((p) => p.completed.id)
        .sort(),
    );
    // Stripe delivers it again: it is fulfilled then.
    expect((await deliverSigned(app, bad.completed)).status).toBe(200);
    expect(await purchasesOf(bad.checkoutId)).toHaveLength(1);
  });

  it('answers every other event of a batch while one waits on Stripe for its refund', { timeout: 20_000 }, async () => {
    const plainCourse = await course('Quick Answers Course');
    const seat = await course('One Seat Workshop', 1);
    const first = await paidCheckout(seat.id, 'seat-first@example.com');
    const late = await paidCheckout(seat.id, 'seat-late@example.com');
    // The seat goes to the first buyer: the late one's payment is refunded when its event comes.
    expect((await request(app).get(`/api/store/checkouts/${first.checkoutId}`)).status).toBe(200);
    expect(await db()('checkouts').where({ id: first.checkoutId }).first('status')).toEqual({ status: 'fulfilled' });
    const plain: Stripe.Event[] = [];
    for (let i = 0; i < 9; i++) plain.push((await paidCheckout(plainCourse.id, `quick-${i}@example.com`)).completed);

    const events = [...plain.slice(0, 5), late.completed, ...plain.slice(5)];
    const deliveries = events.map((event) => deliverSigned(app, event).then((answer) => answer));
    // Stripe answers the refund only once every other event has had its answer (registered before any arrives).
    const othersAnswered = Promise.all(deliveries.filter((_, n) => n !== 5));
    stripe.beforeNext('POST /v1/refunds', async () => {
      await othersAnswered;
    });
    const answers = await Promise.all(deliveries);
    expect(answers.map((a) => a.status)).toEqual(events.map(() => 200));
    expect(await db()('checkouts').where({ id: late.checkoutId }).first('status')).toEqual({ status: 'refunded' });
  });
});
