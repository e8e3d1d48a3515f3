import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, createRevenueSplit, createUser } from '../../seeds/factories';
import { testApp, testConfig } from '../support/app';
import { as, signedIn } from '../support/auth';
import { sessionOfCheckout } from '../support/checkout';
import { useTestDatabase } from '../support/db';
import { jobsSettled } from '../support/jobs';
import { JOBS_SCHEMA } from '../../api/src/jobs/models';
import { SEND_EMAIL } from '../../api/src/mail/outbox-email';
import { deliverSigned, standInEnv, startStripeStandIn, type StandIn } from '../support/stripe-stand-in';

/**
 * What one webhook fulfilment sends to PostgreSQL and to Stripe: its transaction's statements do not grow with the
 * product's revenue splits (no loop of queries), no Stripe call waits inside it, and the year's invoice counter, the
 * one row every fulfilment queues on, is taken by its last statement (the invoice's, numbered), held for the commit only.
 */
describe('one webhook fulfilment, statement by statement', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let stripe: StandIn;
  let app: ReturnType<typeof testApp>;

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    app = testApp(db(), { config: testConfig(standInEnv(stripe)) });
  });
  afterAll(() => stripe?.close());

  /** Each statement with how many Stripe requests the stand-in had answered when it was sent. */
  async function fulfilmentOf(productId: string, email: string) {
    const created = await request(app).post('/api/store/checkout').send({ productId, email });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const completed = stripe.pay(await sessionOfCheckout(db(), created.body.checkoutId));
    // An earlier fulfilment's emails go out in this process meanwhile, on other connections: they are let finish
    // first, and the queue's own look for more (a fetch that may still come) is not this delivery's.
    await jobsSettled(db(), SEND_EMAIL);
    const queue = new RegExp(`\\b${JOBS_SCHEMA}\\b`);
    const sent: { sql: string; transaction?: string; stripeCalls: number }[] = [];
    const record = (q: { sql: string; __knexTxId?: string }) => {
      sent.push({ sql: q.sql.trim(), transaction: q.__knexTxId, stripeCalls: stripe.requests.length });
    };
    const before = stripe.requests.length;
    db().on('query', record);
    try {
      expect((await deliverSigned(app, completed)).body).toEqual({ received: true });
    } finally {
      db().off('query', record);
    }
    const begin = sent.findIndex((s) => s.sql.startsWith('BEGIN'));
    const commit = sent.findIndex((s) => s.sql.startsWith('COMMIT') && s.transaction === sent[begin]?.transaction);
    expect(begin).toBeGreaterThan(-1);
    expect(commit).toBeGreaterThan(begin);
    const checkout = await db()('checkouts').where({ id: created.body.checkoutId }).first('status', 'purchaseId');
    expect(checkout.status).toBe('fulfilled');
    return {
      before,
      begin: sent[begin]!,
      commit: sent[commit]!,
      outside: sent.slice(0, begin).filter((s) => !queue.test(s.sql)),
      // The fulfilment's own transaction (knex names each one): a statement of another connection is not in it.
      inside: sent.slice(begin + 1, commit).filter((s) => s.transaction === sent[begin]!.transaction),
      checkout,
    };
  }

  it('sends as many statements for three revenue splits as for one, none of them to Stripe', async () => {
    const one = await createProduct(db(), { name: 'One Split Course', unitAmount: 8000 });
    await createRevenueSplit(db(), { productId: one.id, type: 'platform', percent: 1 });
    const three = await createProduct(db(), { name: 'Three Splits Course', unitAmount: 9000 });
    await createRevenueSplit(db(), { productId: three.id, type: 'platform', percent: 0.2 });
    for (const email of ['author-a@example.com', 'author-b@example.com']) {
      const author = await createUser(db(), { email });
      await createRevenueSplit(db(), { productId: three.id, type: 'owner', percent: 0.4, userId: author.id });
    }

    const single = await fulfilmentOf(one.id, 'single@example.com');
    const split = await fulfilmentOf(three.id, 'split@example.com');
    expect(await db()('splitLines').whereIn('productId', [one.id, three.id]).count({ n: '*' })).toEqual([{ n: 4 }]);
    expect(split.inside.length).toBe(single.inside.length);
    // A new buyer's fulfilment today: checkout, account, charge and ledger, checks, receipt, invoice, purchase.
    expect(single.inside.length).toBeLessThanOrEqual(10);
    for (const run of [single, split]) {
      // Before the transaction, one read: the checkout, and whether the event was processed already. The event is
      // recorded as processed by the transaction's own writes.
      expect(run.outside).toHaveLength(1);
      expect(run.inside.filter((s) => /\bmerchant_events\b/.test(s.sql))).toHaveLength(1);
      // The session was read back from Stripe before the transaction, and nothing was asked of it within.
      expect(run.begin.stripeCalls).toBeGreaterThan(run.before);
      expect(run.commit.stripeCalls).toBe(run.begin.stripeCalls);
    }
  });

  it('takes the invoice counter only in its last statement, and the invoice names the purchase', async () => {
    const product = await createProduct(db(), { name: 'Invoiced Course', unitAmount: 5000 });
    await createRevenueSplit(db(), { productId: product.id, type: 'platform', percent: 1 });
    const { inside, checkout } = await fulfilmentOf(product.id, 'invoiced@example.com');
    // The counter row is taken by the transaction's last statement, which writes the invoice with its number: no other
    // round trip but the commit's is made while it is held.
    const taking = inside.flatMap((s, n) => (/\binvoice_counters\b/.test(s.sql) ? [n] : []));
    expect(taking).toEqual([inside.length - 1]);
    expect(inside.at(-1)!.sql).toMatch(/\binsert into "invoices"/i);
    const purchase = await db()('purchases').where({ id: checkout.purchaseId }).first('merchantChargeId');
    const invoice = await db()('invoices').where({ merchantChargeId: purchase.merchantChargeId }).first();
    expect(invoice).toMatchObject({ kind: 'invoice', purchaseId: checkout.purchaseId });
    expect(invoice.number).toMatch(/^\d{4}-\d{6}$/);
  });
  it('divides a sale by the splits finance committed while the fulfilment waited for the product', async () => {
    const product = await createProduct(db(), { name: 'Edited Splits Course', unitAmount: 10000 });
    const author = await createUser(db(), { email: 'edited-split-author@example.com' });
    const helper = await createUser(db(), { email: 'edited-split-contributor@example.com' });
    await createRevenueSplit(db(), { productId: product.id, type: 'platform', percent: 0.5 });
    const share = await createRevenueSplit(db(), {
      productId: product.id,
      type: 'owner',
      percent: 0.25,
      userId: author.id,
    });
    await createRevenueSplit(db(), { productId: product.id, type: 'contributor', percent: 0.25, userId: helper.id });
    const finance = await signedIn(db(), ['finance']);
    const created = await request(app)
      .post('/api/store/checkout')
      .send({ productId: product.id, email: 'racing@example.com' });
    expect(created.status).toBe(201);
    const completed = stripe.pay(await sessionOfCheckout(db(), created.body.checkoutId));
    const waiting = async () =>
      Number(
        (
          await db().raw<{ rows: { n: string }[] }>(
            `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          )
        ).rows[0]!.n,
      );

    // Someone holds the product; finance's edit of the author's share queues on it, then the fulfilment behind.
    const holder = await db().transaction();
    try {
      await holder('products').where({ id: product.id }).forUpdate().first('id');
      const edit = as(finance, request(app).put(`/api/admin/product-revenue-splits/${share.id}`)).send({
        percent: 0.05,
      });
      const edited = edit.then((r) => r);
      await expect.poll(waiting, { timeout: 15_000 }).toBe(1);
      const fulfilled = deliverSigned(app, completed).then((r) => r);
      await expect.poll(waiting, { timeout: 15_000 }).toBe(2);
      await holder.commit();
      expect((await edited).status).toBe(200);
      expect((await fulfilled).body).toEqual({ received: true });
    } finally {
      if (!holder.isCompleted()) await holder.rollback();
    }

    const lines = await db()('splitLines')
      .where({ productId: product.id, kind: 'sale' })
      .select('recipientType', 'amount');
    const owner = lines.find((l) => l.recipientType === 'owner')!;
    const contributor = lines.find((l) => l.recipientType === 'contributor')!;
    // Owner and contributor share what is left as 5 to 25 after the edit; as 25 to 25 before it.
    expect(owner.amount * 4).toBeLessThan(contributor.amount);
  });
});
