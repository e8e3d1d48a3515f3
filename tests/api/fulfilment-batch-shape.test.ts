import request from 'supertest';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOBS_SCHEMA } from '../../api/src/jobs/models';
import { SEND_EMAIL } from '../../api/src/mail/outbox';
import { createProduct, createRevenueSplit, createUser } from '../../seeds/factories';
import { testApp, testConfig } from '../support/app';
import { sessionOfCheckout } from '../support/checkout';
import { useTestDatabase } from '../support/db';
import { deliverSigned, standInEnv, startStripeStandIn, type StandIn } from '../support/stripe-stand-in';

/**
 * A batch of fulfilments sends statements whose text does not depend on how many checkouts it holds (each kind of
 * row travels as one parameter), so PostgreSQL plans the same few statements for every batch; and such a batch still
 * writes every row of every checkout.
 */
describe('the statements of a batch of fulfilments', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let stripe: StandIn;
  let app: ReturnType<typeof testApp>;

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    app = testApp(db(), { config: testConfig(standInEnv(stripe)) });
  });
  afterAll(() => stripe?.close());

  async function paidCheckouts(productId: string, label: string, count: number) {
    const paid: { checkoutId: string; email: string; completed: Stripe.Event }[] = [];
    for (let i = 0; i < count; i++) {
      const email = `${label}-${i}@example.com`;
      const created = await request(app).post('/api/store/checkout').send({ productId, email });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const checkoutId = created.body.checkoutId as string;
      paid.push({ checkoutId, email, completed: stripe.pay(await sessionOfCheckout(db(), checkoutId)) });
    }
    return paid;
  }

  /**
   * The events delivered at once: the texts of the statements their fulfilment transactions sent (those that lock
   * checkouts), and the most purchases one statement wrote.
   */
  async function burstOf(events: Stripe.Event[]) {
    const sent: { sql: string; trx?: string; bindings?: unknown[] }[] = [];
    const record = (q: { sql: string; __knexTxId?: string; bindings?: unknown[] }) =>
      sent.push({ sql: q.sql.trim(), trx: q.__knexTxId, bindings: q.bindings });
    db().on('query', record);
    try {
      const answers = await Promise.all(events.map((event) => deliverSigned(app, event)));
      expect(answers.map((a) => a.body)).toEqual(events.map(() => ({ received: true })));
    } finally {
      db().off('query', record);
    }
    const fulfilling = new Set(
      sent.filter((q) => q.trx && /^select "id" from "checkouts" where .* for update$/.test(q.sql)).map((q) => q.trx),
    );
    const inside = sent.filter((q) => fulfilling.has(q.trx) && !/^(BEGIN|COMMIT|ROLLBACK)/i.test(q.sql));
    const purchaseWrites = inside.filter((q) => q.sql.startsWith('with "purchase" as'));
    return {
      texts: new Set(inside.map((q) => q.sql)),
      transactions: fulfilling.size,
      largest: Math.max(...purchaseWrites.map((q) => (JSON.parse(String(q.bindings![0])) as unknown[]).length)),
    };
  }

  it('are the same text for a batch of two as for a batch of seven, which writes every row', async () => {
    const course = await createProduct(db(), { name: 'Same Shape Course', unitAmount: 6_500 });
    const author = await createUser(db(), { email: 'same-shape-author@example.com' });
    await createRevenueSplit(db(), { productId: course.id, type: 'platform', percent: 0.6 });
    await createRevenueSplit(db(), { productId: course.id, type: 'owner', percent: 0.4, userId: author.id });

    const two = await burstOf((await paidCheckouts(course.id, 'two', 2)).map((p) => p.completed));
    const sevenPaid = await paidCheckouts(course.id, 'seven', 7);
    const seven = await burstOf(sevenPaid.map((p) => p.completed));
    // The seven went in fewer transactions than checkouts: some statement wrote several purchases.
    expect(seven.transactions).toBeLessThan(7);
    expect(seven.largest).toBeGreaterThan(1);
    expect([...seven.texts].sort()).toEqual([...two.texts].sort());

    for (const { checkoutId, email, completed } of sevenPaid) {
      const checkout = await db()('checkouts').where({ id: checkoutId }).first('status', 'purchaseId', 'buyerUserId');
      expect(checkout.status).toBe('fulfilled');
      const purchase = await db()('purchases').where({ id: checkout.purchaseId }).first();
      expect(purchase).toMatchObject({ userId: checkout.buyerUserId, productId: course.id, status: 'Valid' });
      const charge = await db()('merchantCharges').where({ id: purchase.merchantChargeId }).first();
      expect(charge).toMatchObject({ amount: 6_500, userId: checkout.buyerUserId });
      expect(charge.metadata).toMatchObject({ checkoutId });
      const customer = await db()('merchantCustomers').where({ id: charge.merchantCustomerId }).first('userId');
      expect(customer.userId).toBe(checkout.buyerUserId);
      const lines = await db()('splitLines').where({ merchantChargeId: charge.id }).select('amount');
      expect(lines).toHaveLength(2);
      const invoice = await db()('invoices').where({ merchantChargeId: charge.id }).first();
      expect(invoice).toMatchObject({ kind: 'invoice', purchaseId: purchase.id, total: 6_500 });
      expect(invoice.number).toMatch(/^\d{4}-\d{6}$/);
      expect(invoice.lines).toEqual(expect.any(Array));
      const offers = await db()('purchaseUserTransfers').where({ purchaseId: purchase.id }).select('transferState');
      expect(offers).toEqual([{ transferState: 'AVAILABLE' }]);
      expect(await db()('verificationTokens').where({ identifier: email }).count({ n: '*' })).toEqual([{ n: 1 }]);
      const receipt = await db()('outboxEmails').where({ toAddress: email }).first('id', 'subject');
      expect(receipt.subject).toBeTruthy();
      const jobs = await db()(`${JOBS_SCHEMA}.job`)
        .where({ name: SEND_EMAIL })
        .whereRaw(`data->>'emailId' = ?`, [receipt.id]);
      expect(jobs).toHaveLength(1);
      const event = await db()('merchantEvents').where({ identifier: completed.id }).first('processedAt', 'type');
      expect(event).toMatchObject({ type: completed.type, processedAt: expect.any(Date) });
    }
    // Numbered without a gap.
    const numbers = (await db()('invoices').where({ kind: 'invoice' }).orderBy('number').pluck('number')) as string[];
    const serials = numbers.map((n) => Number(n.split('-')[1]));
    expect(serials).toEqual(serials.map((_, i) => serials[0]! + i));
  });
});
