import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct, createRevenueSplit } from '../../seeds/factories';
import { testApp, testConfig } from '../support/app';
import { sessionOfCheckout } from '../support/checkout';
import { useTestDatabase } from '../support/db';
import { deliverSigned, standInEnv, startStripeStandIn, type StandIn } from '../support/stripe-stand-in';

/**
 * A batch of webhook fulfilments writes its invoices numbered, in its last statement (docs/domain.md §18.5): the
 * numbers stay gapless and in commit order across batches running at once, a batch queues on the counter behind an
 * issuer that has not committed, takes the numbers such an issuer gave back by rolling back, and gives its own back
 * when it fails after taking them.
 */
describe('invoice numbers of fulfilments in batches', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let stripe: StandIn;
  let app: ReturnType<typeof testApp>;
  let productId: string;
  const year = new Date().getUTCFullYear();

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    app = testApp(db(), { config: testConfig(standInEnv(stripe)) });
    const product = await createProduct(db(), { name: 'Numbered Course', unitAmount: 6_000 });
    await createRevenueSplit(db(), { productId: product.id, type: 'platform', percent: 1 });
    productId = product.id;
  });
  afterAll(() => stripe?.close());

  async function paidCheckouts(prefix: string, count: number) {
    const paid = [];
    for (let i = 0; i < count; i++) {
      const created = await request(app)
        .post('/api/store/checkout')
        .send({ productId, email: `${prefix}-${i}@example.com` });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const checkoutId = created.body.checkoutId as string;
      paid.push({ checkoutId, completed: stripe.pay(await sessionOfCheckout(db(), checkoutId)) });
    }
    return paid;
  }

  const counter = async () =>
    ((await db()('invoiceCounters').where({ kind: 'invoice', year }).first('last'))?.last as number | undefined) ?? 0;

  /** The invoices of the checkouts' purchases: their sequences and numbers, by sequence. */
  const invoicesOf = (checkoutIds: string[]) =>
    db()('invoices as i')
      .join('checkouts as c', 'c.purchaseId', 'i.purchaseId')
      .whereIn('c.id', checkoutIds)
      .orderBy('i.sequence')
      .select('i.sequence', 'i.number', 'i.year');

  const waitingOnLocks = async () =>
    Number(
      (
        await db().raw<{ rows: { n: string }[] }>(
          `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        )
      ).rows[0]!.n,
    );

  /** A burst delivered while another issuer holds the counter; that issuer commits or rolls back once they queue. */
  async function burstBehindIssuer(prefix: string, issuer: 'commits' | 'rolls back') {
    const burst = await paidCheckouts(prefix, 12);
    const start = await counter();
    const holder = await db().transaction();
    const begins: string[] = [];
    const record = (q: { sql: string }) => (q.sql.trim().startsWith('BEGIN') ? begins.push(q.sql) : 0);
    db().on('query', record);
    try {
      await holder.raw(
        `INSERT INTO invoice_counters AS c (kind, year, last) VALUES ('invoice', ?, 1)
         ON CONFLICT (kind, year) DO UPDATE SET last = c.last + 1`,
        [year],
      );
      const answers = Promise.all(burst.map((b) => deliverSigned(app, b.completed)));
      // The batches queue on the counter row, taken by their last statement, with nothing of theirs committed.
      await expect.poll(waitingOnLocks, { timeout: 15_000 }).toBeGreaterThan(0);
      expect(await invoicesOf(burst.map((b) => b.checkoutId))).toEqual([]);
      if (issuer === 'commits') await holder.commit();
      else await holder.rollback();
      expect((await answers).map((a) => a.body)).toEqual(burst.map(() => ({ received: true })));
    } finally {
      db().off('query', record);
      if (!holder.isCompleted()) await holder.rollback();
    }
    // Settled in batches (the holder's transaction, a lone first event, the rest together), none fallen back to one by
    // one as a failed batch is.
    expect(begins.length).toBeLessThanOrEqual(5);
    return { burst, start };
  }

  it('numbers a burst after an issuer that committed first, and from the numbers one that rolled back gave back', async () => {
    for (const issuer of ['commits', 'rolls back'] as const) {
      const { burst, start } = await burstBehindIssuer(`queued-${issuer.replace(' ', '-')}`, issuer);
      const first = start + (issuer === 'commits' ? 2 : 1);
      const invoices = await invoicesOf(burst.map((b) => b.checkoutId));
      // One invoice a purchase, the numbers after the issuer's (or in its place), without a gap, and the counter at
      // the last of them.
      expect(invoices.map((i) => i.sequence)).toEqual(burst.map((_, n) => first + n));
      expect(invoices.map((i) => i.number)).toEqual(
        invoices.map((i) => `${year}-${String(i.sequence).padStart(6, '0')}`),
      );
      expect(invoices.every((i) => i.year === year)).toBe(true);
      expect(await counter()).toBe(first + burst.length - 1);
    }
  });

  it('gives the numbers back when a batch fails after taking them, its checkouts then numbered one by one', async () => {
    const burst = await paidCheckouts('unlucky-batch', 8);
    const start = await counter();
    // The last buyer's invoice is refused as it is written: the batch fails in its last statement, after the counter.
    await db().raw(`
      CREATE FUNCTION refuse_test_invoice() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'refused for the test'; END $$;
      CREATE TRIGGER refuse_test_invoice BEFORE INSERT ON invoices FOR EACH ROW
        WHEN (NEW.buyer->>'email' = 'unlucky-batch-7@example.com') EXECUTE FUNCTION refuse_test_invoice();
    `);
    let statuses: number[];
    try {
      statuses = (await Promise.all(burst.map((b) => deliverSigned(app, b.completed)))).map((a) => a.status);
    } finally {
      await db().raw('DROP TRIGGER refuse_test_invoice ON invoices; DROP FUNCTION refuse_test_invoice();');
    }
    expect(statuses.slice(0, -1)).toEqual(burst.slice(0, -1).map(() => 200));
    expect(statuses.at(-1)).not.toBe(200);
    const invoices = await invoicesOf(burst.map((b) => b.checkoutId));
    expect(invoices.map((i) => i.sequence)).toEqual(burst.slice(0, -1).map((_, n) => start + 1 + n));
    expect(await counter()).toBe(start + burst.length - 1);
    // Stripe's retry fulfils the last one under the next number.
    expect((await deliverSigned(app, burst.at(-1)!.completed)).body).toEqual({ received: true });
    expect((await invoicesOf([burst.at(-1)!.checkoutId])).map((i) => i.sequence)).toEqual([start + burst.length]);
  });
});
