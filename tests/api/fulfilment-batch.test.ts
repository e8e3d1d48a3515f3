import request from 'supertest';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCoupon, createProduct, createRevenueSplit, createUser } from '../../seeds/factories';
import { testApp, testConfig } from '../support/app';
import { sessionOfCheckout } from '../support/checkout';
import { useTestDatabase } from '../support/db';
import { ROLLUP_CHECKS } from '../support/direct-figures';
import { deliverSigned, standInEnv, startStripeStandIn, type StandIn } from '../support/stripe-stand-in';

/**
 * Payment events arriving together are fulfilled in batches (docs/domain.md §6.2): every checkout is fulfilled once,
 * with the same rows (purchase, charge, ledger lines, invoice, offer, receipt) as the thank-you page's fulfilment of
 * one checkout writes, invoices numbered without gaps, the rollups equal to their tables; and a batch sends a bounded
 * number of statements however many checkouts it holds.
 */
describe('webhook fulfilments in batches', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let stripe: StandIn;
  let app: ReturnType<typeof testApp>;

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    app = testApp(db(), { config: testConfig(standInEnv(stripe)) });
  });
  afterAll(() => stripe?.close());

  async function paidCheckout(body: object) {
    const created = await request(app).post('/api/store/checkout').send(body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const checkoutId = created.body.checkoutId as string;
    return { checkoutId, completed: stripe.pay(await sessionOfCheckout(db(), checkoutId)) };
  }

  /** What a checkout's settlement wrote, without ids, times or the buyer's address (which differ between twins). */
  async function writtenFor(checkoutId: string) {
    const checkout = await db()('checkouts').where({ id: checkoutId }).first('status', 'team', 'purchaseId');
    const purchase = await db()('purchases').where({ id: checkout.purchaseId }).first();
    const charge = await db()('merchantCharges').where({ id: purchase.merchantChargeId }).first();
    const lines = await db()('splitLines')
      .where({ merchantChargeId: charge.id })
      .orderBy(['kind', 'recipientType', 'amount'])
      .select('kind', 'recipientType', 'userId', 'amount', 'currency', 'productId');
    const invoices = await db()('invoices')
      .where({ merchantChargeId: charge.id })
      .orderBy('kind')
      .select('kind', 'currency', 'subtotal', 'taxAmount', 'total', 'purchaseId');
    const offers = await db()('purchaseUserTransfers').where({ purchaseId: purchase.id }).select('transferState');
    const user = await db()('users').where({ id: purchase.userId }).first('email');
    const receipts = await db()('outboxEmails').where({ toAddress: user.email }).select('kind');
    return {
      checkout: { status: checkout.status, team: checkout.team },
      purchase: {
        status: purchase.status,
        productId: purchase.productId,
        totalAmount: purchase.totalAmount,
        currency: purchase.currency,
        couponId: purchase.couponId,
        team: purchase.bulkCouponId !== null,
      },
      charge: {
        amount: charge.amount,
        fee: charge.fee,
        net: charge.net,
        taxAmount: charge.taxAmount,
        refundAmount: charge.refundAmount,
        currency: charge.currency,
      },
      lines,
      invoices: invoices.map((i) => ({ ...i, purchaseId: i.purchaseId === purchase.id })),
      offers,
      receipts: receipts.map((r) => r.kind).sort(),
    };
  }

  it('fulfils a burst of mixed checkouts once each, as the one-by-one fulfilment writes them', async () => {
    const course = await createProduct(db(), { name: 'Batched Course', unitAmount: 12_000 });
    const author = await createUser(db(), { email: 'batch-author@example.com' });
    await createRevenueSplit(db(), { productId: course.id, type: 'platform', percent: 0.7 });
    await createRevenueSplit(db(), { productId: course.id, type: 'owner', percent: 0.3, userId: author.id });
    const seat = await createProduct(db(), { name: 'Last Seat Workshop', unitAmount: 9_000, quantityAvailable: 1 });
    await createRevenueSplit(db(), { productId: seat.id, type: 'platform', percent: 1 });
    const coupon = await createCoupon(db(), { code: 'BATCH20', percentageDiscount: 0.2, maxUses: -1 });

    /** The same kinds of checkout twice: settled in one burst of events, and one by one by the thank-you page. */
    const kinds = (side: string) => [
      ...Array.from({ length: 8 }, (_, i) => ({ productId: course.id, email: `plain-${i}-${side}@example.com` })),
      { productId: course.id, email: `coupon-${side}@example.com`, coupon: 'BATCH20' },
      { productId: course.id, email: `team-${side}@example.com`, team: true, quantity: 3 },
      { productId: seat.id, email: `seat-a-${side}@example.com` },
      { productId: seat.id, email: `seat-b-${side}@example.com` },
    ];
    const alone = [];
    for (const body of kinds('alone')) alone.push(await paidCheckout(body));
    for (const { checkoutId } of alone) {
      expect((await request(app).get(`/api/store/checkouts/${checkoutId}`)).status).toBe(200);
    }
    // The last seat went to the first payment alone; the burst's seat payments find it sold already.
    await db()('products').where({ id: seat.id }).update({ quantityAvailable: 2 });

    const burst = [];
    for (const body of kinds('burst')) burst.push(await paidCheckout(body));
    const statements: string[] = [];
    const record = (q: { sql: string }) => statements.push(q.sql.trim());
    db().on('query', record);
    let answers: request.Response[];
    try {
      // One event twice, as Stripe may deliver it.
      const events: Stripe.Event[] = [...burst.map((b) => b.completed), burst[0]!.completed];
      answers = await Promise.all(events.map((event) => deliverSigned(app, event)));
    } finally {
      db().off('query', record);
    }
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));

    // Each checkout once: one purchase, one charge, one receipt, one processed event.
    for (const { checkoutId, completed } of burst) {
      expect(
        await db()('purchases as p').join('checkouts as c', 'c.purchaseId', 'p.id').where('c.id', checkoutId),
      ).toHaveLength(1);
      const events = await db()('merchantEvents').where({ identifier: completed.id }).select('processedAt');
      expect(events).toHaveLength(1);
      expect(events[0]!.processedAt).not.toBeNull();
    }
    const written = await Promise.all(burst.map((b) => writtenFor(b.checkoutId)));
    const reference = await Promise.all(alone.map((a) => writtenFor(a.checkoutId)));
    // The seats: the one-by-one side sold its last seat to the first; the burst had one seat left for two payments.
    const [seatA, seatB] = written.slice(-2);
    expect([seatA!.checkout.status, seatB!.checkout.status].sort()).toEqual(['fulfilled', 'refunded']);
    expect(written.slice(0, -2)).toEqual(reference.slice(0, -2));
    expect(reference.slice(-2).map((r) => r.checkout.status)).toEqual(['fulfilled', 'refunded']);
    const byStatus = (rows: typeof written) =>
      [...rows].sort((a, b) => a.checkout.status.localeCompare(b.checkout.status));
    expect(byStatus(written.slice(-2))).toEqual(byStatus(reference.slice(-2)));
    expect((await db()('coupons').where({ id: coupon.id }).first('usedCount')).usedCount).toBe(2);

    // Invoices numbered without a gap across both sides; every rollup equals its table.
    const numbers = (await db()('invoices').where({ kind: 'invoice' }).orderBy('number').pluck('number')) as string[];
    const serials = numbers.map((n) => Number(n.split('-')[1]));
    expect(serials).toEqual(serials.map((_, i) => serials[0]! + i));
    for (const [name, { rollup, direct }] of Object.entries(ROLLUP_CHECKS)) {
      const [kept, summed] = await Promise.all([db().raw(rollup), db().raw(direct)]);
      expect(kept.rows, name).toEqual(summed.rows);
    }

    // Few transactions for the burst, and few statements in each whatever its size.
    const begins = statements.filter((s) => s.startsWith('BEGIN')).length;
    expect(begins).toBeLessThanOrEqual(8);
  });

  /** The statements a burst of webhooks sends, by transaction (the receipts' delivery, run by the job queue, left out). */
  async function burstOf(events: Stripe.Event[]) {
    const sent: { sql: string; trx?: string }[] = [];
    const record = (q: { sql: string; __knexTxId?: string }) => sent.push({ sql: q.sql.trim(), trx: q.__knexTxId });
    db().on('query', record);
    try {
      const answers = await Promise.all(events.map((event) => deliverSigned(app, event)));
      expect(answers.map((a) => a.body)).toEqual(events.map(() => ({ received: true })));
    } finally {
      db().off('query', record);
    }
    const ours = sent.filter(({ sql }) => !/\bpgboss\b|\boutbox_emails\b/.test(sql));
    const transactions = new Map<string, string[]>();
    for (const { sql, trx } of ours) {
      if (!trx || /^(BEGIN|COMMIT)/.test(sql)) continue;
      transactions.set(trx, [...(transactions.get(trx) ?? []), sql]);
    }
    return { transactions: [...transactions.values()], outside: ours.filter((q) => !q.trx).length };
  }

  it('sends as many statements for a batch of twenty new buyers as for one', async () => {
    const course = await createProduct(db(), { name: 'Twenty Buyers Course', unitAmount: 7_000 });
    await createRevenueSplit(db(), { productId: course.id, type: 'platform', percent: 1 });
    const one = await paidCheckout({ productId: course.id, email: 'only-one@example.com' });
    const single = await burstOf([one.completed]);
    expect(single.transactions).toHaveLength(1);

    const twenty = [];
    for (let i = 0; i < 20; i++)
      twenty.push(await paidCheckout({ productId: course.id, email: `twenty-${i}@example.com` }));
    const burst = await burstOf(twenty.map((t) => t.completed));
    // A lone first event is a batch of its own; the others wait for it and go together.
    expect(burst.transactions.length).toBeLessThanOrEqual(3);
    for (const statements of burst.transactions)
      expect(statements.length).toBeLessThanOrEqual(single.transactions[0]!.length);
    // One read before each batch's transaction.
    expect(burst.outside).toBeLessThanOrEqual(burst.transactions.length);
    const fulfilled = await db()('checkouts')
      .whereIn(
        'id',
        twenty.map((t) => t.checkoutId),
      )
      .where({ status: 'fulfilled' });
    expect(fulfilled).toHaveLength(20);
  });
});
