import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox as createOutbox, SEND_EMAIL } from '../../api/src/mail/outbox';
import type { MailTransport } from '../../api/src/mail/transport';
import { createLogger } from '../../api/src/logger';
import { createProduct, createRevenueSplit, createUser } from '../../seeds/factories';
import { testApp, testConfig } from '../support/app';
import { as, signedIn } from '../support/auth';
import { sessionOfCheckout } from '../support/checkout';
import { useTestDatabase } from '../support/db';
import { jobsOf } from '../support/jobs';
import { standInEnv, startStripeStandIn, type StandIn, deliverSigned } from '../support/stripe-stand-in';

/** Every record a webhook fulfilment writes, for each kind of buyer, and the receipts it leaves to the outbox. */
describe('fulfilment of a Stripe checkout through its webhook', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let stripe: StandIn;
  let app: ReturnType<typeof testApp>;
  const TRANSFER_WINDOW_DAYS = 5;

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    app = testApp(db(), {
      config: testConfig({ ...standInEnv(stripe), TRANSFER_WINDOW_DAYS: String(TRANSFER_WINDOW_DAYS) }),
    });
  });
  afterAll(() => stripe?.close());

  const deliver = (event: Parameters<typeof deliverSigned>[1]) => deliverSigned(app, event);
  async function paidCheckout(body: object, buyer?: Awaited<ReturnType<typeof signedIn>>) {
    const created = await as(buyer, request(app).post('/api/store/checkout')).send(body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const session = await sessionOfCheckout(db(), created.body.checkoutId);
    return { checkoutId: created.body.checkoutId as string, completed: stripe.pay(session) };
  }
  /** The purchase, charge, customer, product mirror, split lines and transfer offer of a settled checkout. */
  async function recordsOf(checkoutId: string) {
    const checkout = await db()('checkouts').where({ id: checkoutId }).first();
    const purchase = await db()('purchases').where({ id: checkout.purchaseId }).first();
    const charge = await db()('merchantCharges').where({ id: purchase.merchantChargeId }).first();
    const customer = await db()('merchantCustomers').where({ id: charge.merchantCustomerId }).first();
    const mirror = await db()('merchantProducts').where({ id: charge.merchantProductId }).first();
    const lines = await db()('splitLines').where({ merchantChargeId: charge.id });
    const offers = await db()('purchaseUserTransfers').where({ purchaseId: purchase.id });
    return { checkout, purchase, charge, customer, mirror, lines, offers };
  }

  it('writes every record for a new buyer, and marks the event processed only with all of them', async () => {
    const product = await createProduct(db(), { name: 'Webhook Records Course', unitAmount: 8000 });
    const partner = await createUser(db(), { email: 'partner@example.com' });
    await createRevenueSplit(db(), { productId: product.id, type: 'platform', percent: 0.2 });
    await createRevenueSplit(db(), { productId: product.id, type: 'owner', percent: 0.8, userId: partner.id });
    const { checkoutId, completed } = await paidCheckout({ productId: product.id, email: 'First.Timer@Example.com' });
    expect((await deliver(completed)).body).toEqual({ received: true });

    const { checkout, purchase, charge, customer, mirror, lines, offers } = await recordsOf(checkoutId);
    const buyer = await db()('users').whereRaw('lower(email) = ?', ['first.timer@example.com']).first();
    expect(buyer).toMatchObject({ emailVerified: null });
    expect(checkout).toMatchObject({ status: 'fulfilled', buyerUserId: buyer.id });
    expect(purchase).toMatchObject({
      userId: buyer.id,
      productId: product.id,
      status: 'Valid',
      totalAmount: checkout.amountTotal,
    });
    const stripeCharge = [...stripe.objects.values()].find((o) => o.id === charge.identifier)!;
    expect(charge).toMatchObject({ userId: buyer.id, amount: stripeCharge.amount });
    expect(customer).toMatchObject({ identifier: stripeCharge.customer, userId: buyer.id, status: 'active' });
    // The product's mirror recorded when the checkout synced it at Stripe, not a fallback.
    expect(mirror).toMatchObject({ productId: product.id });
    expect(stripe.objects.get(mirror.identifier)?.object).toBe('product');
    expect(lines.reduce((sum: number, l: { amount: number }) => sum + l.amount, 0)).toBe(charge.net);
    expect(offers).toHaveLength(1);
    expect(offers[0]).toMatchObject({ sourceUserId: buyer.id, transferState: 'AVAILABLE' });
    expect(new Date(offers[0].expiresAt).getTime() - new Date(purchase.createdAt).getTime()).toBe(
      TRANSFER_WINDOW_DAYS * 86_400_000,
    );
    const receipt = await db()('outboxEmails')
      .where({ kind: 'receipt' })
      .whereRaw('lower(to_address) = ?', ['first.timer@example.com'])
      .first();
    const invoice = await db()('invoices').where({ merchantChargeId: charge.id, kind: 'invoice' }).first('id');
    expect(receipt.textBody).toContain(`/invoices/${invoice.id}`);
    expect(receipt.textBody).toContain(`($${(checkout.amountTotal / 100).toFixed(2)})`);
    expect((await db()('merchantEvents').where({ identifier: completed.id }).first()).processedAt).not.toBeNull();
  });

  it("puts a returning buyer's purchase on their account, found by email in any case", async () => {
    const product = await createProduct(db(), { name: 'Returning Buyer Course', unitAmount: 3000 });
    const known = await createUser(db(), { email: 'Returning@Example.com' });
    const users = Number((await db()('users').count({ n: '*' }))[0]!.n);
    const { checkoutId, completed } = await paidCheckout({ productId: product.id, email: 'RETURNING@example.COM' });
    await deliver(completed);

    const { checkout, purchase, charge } = await recordsOf(checkoutId);
    expect(Number((await db()('users').count({ n: '*' }))[0]!.n)).toBe(users);
    expect(checkout.buyerUserId).toBe(known.id);
    expect(purchase.userId).toBe(known.id);
    expect(charge.userId).toBe(known.id);
    // The receipt goes to the address of the account.
    expect(await db()('outboxEmails').where({ kind: 'receipt', toAddress: known.email }).first()).toBeTruthy();
  });

  it("gives a signed-in buyer's purchase to them, whatever email the checkout form carried", async () => {
    const product = await createProduct(db(), { name: 'Signed In Course', unitAmount: 3000 });
    const buyer = await signedIn(db(), ['learner'], 'signed.in@example.com');
    const { checkoutId, completed } = await paidCheckout(
      { productId: product.id, email: 'elsewhere@example.com' },
      buyer,
    );
    await deliver(completed);

    const { checkout, purchase, offers } = await recordsOf(checkoutId);
    expect(checkout).toMatchObject({ status: 'fulfilled', buyerUserId: buyer.user.id });
    expect(purchase.userId).toBe(buyer.user.id);
    expect(offers).toHaveLength(1);
    expect(await db()('users').where({ email: 'elsewhere@example.com' }).first()).toBeUndefined();
  });

  const processedAt = async (eventId: string) =>
    (await db()('merchantEvents').where({ identifier: eventId }).first())?.processedAt ?? null;

  it('sells seats to a team, and more seats later, marking each event processed', async () => {
    const product = await createProduct(db(), { name: 'Team Webhook Course', unitAmount: 5000 });
    const buyer = await signedIn(db(), ['learner'], 'team.lead@example.com');
    const first = await paidCheckout({ productId: product.id, quantity: 3, team: true }, buyer);
    expect((await deliver(first.completed)).body).toEqual({ received: true });
    const more = await paidCheckout({ productId: product.id, quantity: 2, team: true }, buyer);
    expect((await deliver(more.completed)).body).toEqual({ received: true });

    const purchases = await db()('purchases')
      .where({ userId: buyer.user.id, productId: product.id })
      .orderBy('createdAt');
    expect(purchases).toHaveLength(2);
    expect(purchases[0].bulkCouponId).toBeTruthy();
    expect(purchases[1].bulkCouponId).toBe(purchases[0].bulkCouponId);
    expect(await db()('coupons').where({ id: purchases[0].bulkCouponId }).first()).toMatchObject({
      maxUses: 5,
      percentageDiscount: 1,
      restrictedToProductId: product.id,
    });
    for (const { checkoutId, completed } of [first, more]) {
      expect((await db()('checkouts').where({ id: checkoutId }).first()).status).toBe('fulfilled');
      expect(await processedAt(completed.id)).not.toBeNull();
    }
    // A team purchase is not given away as a whole.
    expect(
      await db()('purchaseUserTransfers').whereIn(
        'purchaseId',
        purchases.map((p) => p.id),
      ),
    ).toHaveLength(0);
    expect(await db()('outboxEmails').where({ toAddress: 'team.lead@example.com', kind: 'receipt' })).toHaveLength(2);
  });

  it('refunds a payment made after the last seat went, with an apology, and marks its event processed', async () => {
    const product = await createProduct(db(), { name: 'Last Seat Course', unitAmount: 5000, quantityAvailable: 1 });
    const winner = await paidCheckout({ productId: product.id, email: 'winner@example.com' });
    const loser = await paidCheckout({ productId: product.id, email: 'loser@example.com' });
    await deliver(winner.completed);
    expect((await deliver(loser.completed)).body).toEqual({ received: true });

    const { checkout, purchase, charge, offers } = await recordsOf(loser.checkoutId);
    expect(checkout.status).toBe('refunded');
    expect(purchase.status).toBe('Refunded');
    expect(charge.refundAmount).toBe(charge.amount);
    expect(offers).toHaveLength(0);
    expect(await db()('outboxEmails').where({ toAddress: 'loser@example.com', kind: 'sold-out-refund' })).toHaveLength(
      1,
    );
    expect(await processedAt(loser.completed.id)).not.toBeNull();
    expect((await deliver(loser.completed)).body).toEqual({ received: true, duplicate: true });
  });

  it('marks an event processed when its checkout was already fulfilled by the thank-you page', async () => {
    const product = await createProduct(db(), { name: 'Thanks First Course', unitAmount: 3000 });
    const { checkoutId, completed } = await paidCheckout({ productId: product.id, email: 'quick@example.com' });
    expect((await request(app).get(`/api/store/checkouts/${checkoutId}`)).body.status).toBe('fulfilled');
    expect((await deliver(completed)).body).toEqual({ received: true });
    expect(await processedAt(completed.id)).not.toBeNull();
    expect(await db()('purchases').where({ productId: product.id })).toHaveLength(1);
  });

  it('writes nothing and leaves the event unprocessed when fulfilment fails at its last write; the redelivery fulfils once', async () => {
    const product = await createProduct(db(), { name: 'Failing Write Course', unitAmount: 3000 });
    const { checkoutId, completed } = await paidCheckout({ productId: product.id, email: 'unlucky@example.com' });
    // The transfer offer, written last, fails once (as a lost connection or a full disk would).
    await db().raw(
      `CREATE FUNCTION fail_offer() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$`,
    );
    await db().raw(
      `CREATE TRIGGER fail_offer BEFORE INSERT ON purchase_user_transfers FOR EACH ROW EXECUTE FUNCTION fail_offer()`,
    );
    try {
      expect((await deliver(completed)).status).toBe(500);
    } finally {
      await db().raw('DROP TRIGGER fail_offer ON purchase_user_transfers');
      await db().raw('DROP FUNCTION fail_offer()');
    }
    expect((await db()('checkouts').where({ id: checkoutId }).first()).status).toBe('open');
    expect(await db()('users').where({ email: 'unlucky@example.com' }).first()).toBeUndefined();
    expect(await db()('merchantCharges').whereRaw(`metadata->>'checkoutId' = ?`, [checkoutId]).first()).toBeUndefined();
    expect(await db()('outboxEmails').where({ toAddress: 'unlucky@example.com' }).first()).toBeUndefined();
    expect(await processedAt(completed.id)).toBeNull();

    expect((await Promise.all([deliver(completed), deliver(completed)])).map((a) => a.status)).toEqual([200, 200]);
    const { checkout, offers } = await recordsOf(checkoutId);
    expect(checkout.status).toBe('fulfilled');
    expect(await db()('purchases').where({ productId: product.id })).toHaveLength(1);
    expect(offers).toHaveLength(1);
    expect(await db()('outboxEmails').where({ toAddress: 'unlucky@example.com', kind: 'receipt' })).toHaveLength(1);
    expect(await processedAt(completed.id)).not.toBeNull();
  });
});

describe('receipts in the outbox', () => {
  const database = useTestDatabase();
  const db = () => database().db;

  it('delivers a batch of due emails, recording each sent one, while a failing address is retried later', async () => {
    const sent: string[] = [];
    const transport: MailTransport = {
      name: 'smtp',
      timeoutSeconds: 5,
      async send(email) {
        if (email.to === 'broken@example.com') throw new Error('mailbox unavailable');
        sent.push(email.to);
      },
    };
    const mail = createOutbox({
      db: db(),
      clock: { now: () => new Date() },
      logger: createLogger('silent'),
      transport,
    });
    const addresses = ['one@example.com', 'broken@example.com', 'two@example.com', 'three@example.com'];
    for (const to of addresses)
      await mail.enqueue(db(), { kind: 'receipt', to, subject: 'Your receipt', text: 'Thank you.' });

    await mail.flush();
    expect(sent.sort()).toEqual(['one@example.com', 'three@example.com', 'two@example.com']);
    const rows = await db()('outboxEmails').whereIn('toAddress', addresses);
    for (const row of rows.filter((r) => r.toAddress !== 'broken@example.com')) {
      expect(row).toMatchObject({ status: 'sent', attempts: 1, transport: 'smtp', lastError: null });
      expect(row.sentAt).not.toBeNull();
    }
    const broken = rows.find((r) => r.toAddress === 'broken@example.com');
    expect(broken).toMatchObject({ status: 'pending', attempts: 1, lastError: 'mailbox unavailable', sentAt: null });
    // Nothing is due again at once: the sent ones are done and the failed one waits for its retry.
    const jobs = await jobsOf(db(), SEND_EMAIL);
    expect(jobs.map((job) => job.state).sort()).toEqual(['completed', 'completed', 'completed', 'retry']);
    await mail.flush();
    expect(sent).toHaveLength(3);
  });
});
