import type { Knex } from 'knex';
import request from 'supertest';
import { expect } from 'vitest';
import type { Db } from '../../api/src/db/connection';
import { testApp, testConfig } from '../support/app';
import { sessionOfCheckout } from '../support/checkout';
import { signed, standInEnv, type StandIn } from '../support/stripe-stand-in';

export type Handler = ReturnType<typeof testApp>;

export const count = async (query: Knex.QueryBuilder): Promise<number> => Number((await query.count({ n: '*' }))[0]!.n);

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `work` over `items` with at most `width` at a time, keeping the results in order. */
export async function inBatches<T, R>(
  items: T[],
  width: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!, index);
      }
    }),
  );
  return results;
}

/**
 * The storefront and Stripe's side of a payment, on an app built against `db` and the stand-in: start a checkout,
 * pay it at "Stripe", deliver the signed webhook (once, or as Stripe does until it gets a 2xx).
 */
export function stripeShop(db: () => Db, stripe: () => StandIn, env: Record<string, string> = {}) {
  let app: Handler | undefined;
  const handler = () => (app ??= testApp(db(), { config: testConfig({ ...standInEnv(stripe()), ...env }) }));

  const checkout = (body: object) => request(handler()).post('/api/store/checkout').send(body);
  const deliver = (event: Parameters<typeof signed>[0]) => {
    const { payload, signature } = signed(event);
    return request(handler())
      .post('/api/webhooks/stripe')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', signature)
      .send(payload);
  };
  const thanks = (checkoutId: string) => request(handler()).get(`/api/store/checkouts/${checkoutId}`);

  /** Starts a checkout and pays for it at Stripe; returns the completed event, not yet delivered. */
  async function paidCheckout(body: object) {
    const created = await checkout(body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const session = await sessionOfCheckout(db(), created.body.checkoutId);
    return { checkoutId: created.body.checkoutId as string, session, completed: stripe().pay(session) };
  }

  /**
   * Stripe's delivery: answers other than 2xx (and failed connections) are retried after a pause until one is
   * accepted. Returns the statuses seen, the last one 2xx.
   */
  async function deliverUntilAccepted(
    event: Parameters<typeof signed>[0],
    { pauseMs = 50, attempts = 200 } = {},
  ): Promise<number[]> {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < attempts; attempt++) {
      const status = await deliver(event).then(
        (answer) => answer.status,
        () => 0,
      );
      statuses.push(status);
      if (status >= 200 && status < 300) return statuses;
      // Never a 4xx: a signed, well-formed event is refused only when something broke on our side.
      expect(status === 0 || status >= 500, `delivery answered ${status}`).toBe(true);
      await pause(pauseMs);
    }
    throw new Error(`a webhook was still refused after ${attempts} deliveries: ${statuses.join(',')}`);
  }

  return { handler, checkout, deliver, thanks, paidCheckout, deliverUntilAccepted };
}

export type StripeShop = ReturnType<typeof stripeShop>;

/**
 * Exactly once, for every paid checkout: one purchase, one charge (with its Stripe identifier) and its one invoice,
 * a credit note for what was refunded (a sold-out payment's whole amount), one receipt or sold-out email, and the
 * checkout settled. Returns the purchases by checkout.
 */
export async function expectFulfilledOnce(
  db: Db,
  stripe: StandIn,
  checkouts: { checkoutId: string; session: string }[],
) {
  const rows = await db('checkouts')
    .whereIn(
      'id',
      checkouts.map((c) => c.checkoutId),
    )
    .select('id', 'status', 'purchaseId', 'buyerEmail');
  expect(rows).toHaveLength(checkouts.length);
  for (const row of rows)
    expect(['fulfilled', 'refunded'], `checkout ${row.id} is ${row.status}`).toContain(row.status);
  const purchases = await db('purchases').whereIn(
    'merchantSessionId',
    db('merchantSessions')
      .whereIn(
        'identifier',
        checkouts.map((c) => c.session),
      )
      .select('id'),
  );
  expect(purchases).toHaveLength(checkouts.length);
  expect(new Set(purchases.map((p) => p.id))).toEqual(new Set(rows.map((r) => r.purchaseId)));
  const charges = await db('merchantCharges').whereIn(
    'id',
    purchases.map((p) => p.merchantChargeId),
  );
  expect(charges).toHaveLength(checkouts.length);
  const documents = await db('invoices')
    .whereIn(
      'merchantChargeId',
      charges.map((c) => c.id),
    )
    .select('merchantChargeId', 'kind', 'total');
  for (const charge of charges) {
    const of = (kind: string) => documents.filter((d) => d.merchantChargeId === charge.id && d.kind === kind);
    expect(of('invoice'), `the invoices of charge ${charge.identifier}`).toHaveLength(1);
    const credited = of('credit-note').reduce((sum, d) => sum + d.total, 0);
    expect(credited, `the credit notes of charge ${charge.identifier}`).toBe(charge.refundAmount);
  }
  for (const { session } of checkouts) {
    const chargeId = stripe.objects.get(
      stripe.objects.get(stripe.objects.get(session)!.payment_intent as string)!.latest_charge as string,
    )!.id;
    expect(await count(db('merchantCharges').where({ identifier: chargeId }))).toBe(1);
  }
  const emails = await db('outboxEmails')
    .whereIn(
      'toAddress',
      rows.map((r) => r.buyerEmail),
    )
    .whereIn('kind', ['receipt', 'sold-out-refund'])
    .select('toAddress');
  expect(emails.map((e) => e.toAddress).sort()).toEqual(rows.map((r) => r.buyerEmail).sort());
  return purchases;
}
