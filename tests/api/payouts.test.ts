import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definePayoutJobs, MONTHLY_PAYOUT_RUN } from '../../api/src/finance/payouts/payouts';
import { JOBS_SCHEMA } from '../../api/src/jobs/models';
import { jobQueue } from '../../api/src/jobs/queue';
import { createLogger } from '../../api/src/logger';
import type { PayoutBalance } from '../../api/src/finance/payouts/schemas';
import { createServices, type Services } from '../../api/src/services';
import { createProduct, createRevenueSplit, createUser } from '../../seeds/factories';
import { testConfig, testDeps } from '../support/app';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { expectPayoutInvariants } from '../support/payout-invariants';
import { startStripeShop, soldOnStripe, type StripeShop } from '../support/stripe-sales';
import { deliverSigned, standInEnv, type StandIn } from '../support/stripe-stand-in';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('payouts to revenue-split recipients (docs/domain.md §19)', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let shop: StripeShop;
  let stripe: StandIn;
  let services: Services;
  let app: StripeShop['app'];
  let finance: SignedIn;
  let support: SignedIn;
  // The payout's clock runs ahead of the database's, as time passing would: lines age past the holding period.
  let daysAhead = 0;

  beforeAll(async () => {
    shop = await startStripeShop(db(), { clock: { now: () => new Date(Date.now() + daysAhead * DAY_MS) } });
    ({ stripe, services, app } = shop);
    finance = await signedIn(db(), ['finance']);
    support = await signedIn(db(), ['support']);
  });
  afterAll(() => stripe?.close());

  /** A product sold at `price`, 30 % to the platform, the rest to an owner (and a contributor when asked). */
  async function splitProduct(name: string, price: number, withContributor = true) {
    const product = await createProduct(db(), { name, unitAmount: price });
    const owner = await createUser(db(), { email: `owner-${name.toLowerCase().replaceAll(' ', '-')}@example.com` });
    await createRevenueSplit(db(), { productId: product.id, type: 'platform', percent: 0.3 });
    await createRevenueSplit(db(), {
      productId: product.id,
      type: 'owner',
      percent: withContributor ? 0.5 : 0.7,
      userId: owner.id,
    });
    let contributor: { id: string } | null = null;
    if (withContributor) {
      contributor = await createUser(db(), { email: `contrib-${name.toLowerCase().replaceAll(' ', '-')}@example.com` });
      await createRevenueSplit(db(), {
        productId: product.id,
        type: 'contributor',
        percent: 0.2,
        userId: contributor.id,
      });
    }
    return { product, owner, contributor };
  }

  let buyers = 0;
  const sell = (productId: string) => soldOnStripe(db(), shop, productId, `buyer-${++buyers}@example.com`);

  const balances = async (): Promise<PayoutBalance[]> => {
    const answer = await as(finance, request(app).get('/api/admin/payouts/balances'));
    expect(answer.status).toBe(200);
    return answer.body.data;
  };
  const balanceOf = async (userId: string) => (await balances()).find((b) => b.recipientId === userId);
  const run = async () => {
    const answer = await as(finance, request(app).post('/api/admin/payouts/run')).send({});
    expect(answer.status).toBe(200);
    return answer.body.data as { runId: string; created: number; sent: number; failed: number };
  };
  const payoutsOf = (userId: string) => db()('payouts').where({ recipientId: userId }).orderBy('createdAt');
  const linesOf = (userId: string) => db()('splitLines').where({ userId }).orderBy('id');
  const sum = (rows: { amount: number }[]) => rows.reduce((s, r) => s + r.amount, 0);

  const assertInvariants = async () => expectPayoutInvariants(db(), await balances());

  it('reads balances from the ledger alone: sales, a partial refund and a lost dispute, never the platform', async () => {
    const { product, owner, contributor } = await splitProduct('Ledger Course', 10_000);
    const first = await sell(product.id);
    await sell(product.id);
    const disputed = await sell(product.id);
    const refunded = await as(support, request(app).post(`/api/admin/purchases/${first.purchase.id}/refund`)).send({
      amount: 2_500,
      reasonCode: 'customer-request',
      reason: 'Partial',
    });
    expect(refunded.status).toBe(200);
    const dispute = stripe.openDispute(disputed.charge.identifier);
    await deliverSigned(app, dispute.event);
    await deliverSigned(app, stripe.closeDispute(dispute.dispute, 'lost'));

    for (const recipient of [owner, contributor!]) {
      const lines = await linesOf(recipient.id);
      const b = (await balanceOf(recipient.id))!;
      expect(b.currency).toBe('usd');
      expect(b.earned).toBe(sum(lines.filter((l: { amount: number }) => l.amount > 0)));
      expect(b.clawedBack).toBe(0 - sum(lines.filter((l: { amount: number }) => l.amount < 0)));
      expect(b.clawedBack).toBeGreaterThan(0);
      expect(b.balance).toBe(sum(lines));
      expect(b.paid).toBe(0);
      // Nothing has passed the holding period; what came back counts at once.
      expect(b.payable).toBe(-b.clawedBack);
    }
    const platformLines = await db()('splitLines').where({ recipientType: 'platform' }).count({ n: '*' });
    expect(Number(platformLines[0]!.n)).toBeGreaterThan(0);
    expect((await balances()).every((b) => b.recipientId)).toBe(true);
    await assertInvariants();
  });

  it('pays only lines past the holding period, and only balances of at least the minimum', async () => {
    const big = await splitProduct('Held Course', 10_000, false);
    const small = await splitProduct('Small Course', 1_000, false); // the owner earns about 6.70, under 20.00
    await sell(big.product.id);
    await sell(small.product.id);

    daysAhead = 13; // not yet 14 days old
    const early = await run();
    expect(await payoutsOf(big.owner.id)).toEqual([]);
    expect(early.created).toBe(0);

    daysAhead = 15;
    const ownerLines = await linesOf(big.owner.id);
    expect((await balanceOf(big.owner.id))!.payable).toBe(sum(ownerLines));
    await run();
    const [payout, ...more] = await payoutsOf(big.owner.id);
    expect(more).toEqual([]);
    expect(payout).toMatchObject({ amount: sum(ownerLines), currency: 'usd', method: 'manual', status: 'pending' });
    expect(payout.idempotencyKey).toBe(`payout:${payout.id}`);
    expect(await payoutsOf(small.owner.id)).toEqual([]);
    expect((await balanceOf(small.owner.id))!.payable).toBeGreaterThan(0);
    // A pending payout is still owed: in the balance, out of what a run may pay.
    expect(await balanceOf(big.owner.id)).toMatchObject({ paid: 0, inPayouts: payout.amount, payable: 0 });
    // Run again: nothing new to pay, the pending payout is not made twice.
    await run();
    expect(await payoutsOf(big.owner.id)).toHaveLength(1);
    await assertInvariants();
  });

  it('makes each payout once when two runs start at the same time', async () => {
    daysAhead = 15;
    const { product, owner, contributor } = await splitProduct('Race Course', 20_000);
    await sell(product.id);
    await sell(product.id);
    const [a, b] = await Promise.all([run(), run()]);
    expect(a.runId).not.toBe(b.runId);
    expect(await payoutsOf(owner.id)).toHaveLength(1);
    expect(await payoutsOf(contributor!.id)).toHaveLength(1);
    expect(sum(await payoutsOf(owner.id))).toBe(sum(await linesOf(owner.id)));
    await assertInvariants();
  });

  it('leaves nothing behind when a run fails halfway, and the next run pays everyone', async () => {
    daysAhead = 15;
    const { product, owner, contributor } = await splitProduct('Crash Course', 20_000);
    await sell(product.id);
    // The run's last write fails, as a crash would end it: after its payouts and their lines were written.
    await db().raw(`
      CREATE FUNCTION payout_run_crash() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'the server went away'; END $$;
      CREATE TRIGGER payout_run_crash BEFORE INSERT ON audit_logs FOR EACH ROW
        WHEN (NEW.action = 'payout.run') EXECUTE FUNCTION payout_run_crash();`);
    const runsBefore = (await db()('payoutRuns')).length;
    try {
      const crashed = await as(finance, request(app).post('/api/admin/payouts/run')).send({});
      expect(crashed.status).toBe(500);
    } finally {
      await db().raw('DROP TRIGGER payout_run_crash ON audit_logs; DROP FUNCTION payout_run_crash()');
    }
    expect(await db()('payoutRuns')).toHaveLength(runsBefore);
    for (const recipient of [owner, contributor!]) expect(await payoutsOf(recipient.id)).toEqual([]);

    await run();
    for (const recipient of [owner, contributor!]) {
      const [payout, ...more] = await payoutsOf(recipient.id);
      expect(more).toEqual([]);
      expect(payout.amount).toBe(sum(await linesOf(recipient.id)));
    }
    await assertInvariants();
  });

  it('carries a negative balance after a refund that followed a payout, then pays only the difference', async () => {
    daysAhead = 15;
    const { product, owner } = await splitProduct('Carry Course', 10_000, false);
    const first = await sell(product.id);
    await run();
    const [paidOut] = await payoutsOf(owner.id);
    const marked = await as(finance, request(app).post(`/api/admin/payouts/${paidOut.id}/mark-paid`)).send({
      reference: 'BANK-0001',
    });
    expect(marked.status).toBe(200);
    expect(marked.body.data).toMatchObject({ status: 'paid', reference: 'BANK-0001' });

    await as(support, request(app).post(`/api/admin/purchases/${first.purchase.id}/refund`)).send({
      amount: 5_000,
      reasonCode: 'customer-request',
      reason: 'Half back',
    });
    const refundLine = (await linesOf(owner.id)).at(-1);
    expect(refundLine.amount).toBeLessThan(0);
    const carried = (await balanceOf(owner.id))!;
    expect(carried).toMatchObject({ paid: paidOut.amount, balance: refundLine.amount, payable: refundLine.amount });
    await run();
    expect(await payoutsOf(owner.id)).toHaveLength(1); // nothing paid, nothing written off

    await sell(product.id);
    const saleLine = (await linesOf(owner.id)).at(-1);
    expect(saleLine.amount + refundLine.amount).toBeGreaterThanOrEqual(2_000);
    await run();
    const payouts = await payoutsOf(owner.id);
    expect(payouts).toHaveLength(2);
    expect(payouts[1].amount).toBe(saleLine.amount + refundLine.amount);
    const covered = await db()('payoutLines').where({ payoutId: payouts[1].id }).select('splitLineId');
    expect(covered.map((c: { splitLineId: string }) => String(c.splitLineId)).sort()).toEqual(
      [String(refundLine.id), String(saleLine.id)].sort(),
    );
    await assertInvariants();
  });

  it('sends Stripe payouts through the SDK, and retries a failed transfer with the same idempotency key', async () => {
    daysAhead = 15;
    const { product, owner } = await splitProduct('Connect Course', 10_000, false);
    const connected = await as(finance, request(app).post('/api/admin/payout-recipients')).send({
      userId: owner.id,
      stripeAccountId: 'acct_1TestConnected',
    });
    expect(connected.status).toBe(201);
    await sell(product.id);

    stripe.failNext('POST /v1/transfers', 3); // the first try and the SDK's two retries
    const failing = await run();
    expect(failing.failed).toBe(1);
    const [failed] = await payoutsOf(owner.id);
    expect(failed).toMatchObject({ method: 'stripe', status: 'failed', reference: null });
    expect(failed.error).toBeTruthy();

    const retried = await run();
    expect(retried).toMatchObject({ created: 0, sent: 1, failed: 0 });
    const [paid, ...more] = await payoutsOf(owner.id);
    expect(more).toEqual([]);
    expect(paid).toMatchObject({ id: failed.id, status: 'paid', error: null });
    const transfer = stripe.objects.get(paid.reference);
    expect(transfer).toMatchObject({
      object: 'transfer',
      amount: paid.amount,
      currency: 'usd',
      destination: 'acct_1TestConnected',
    });
    const keys = stripe.requests.filter((r) => r.template === 'POST /v1/transfers').map((r) => r.idempotencyKey);
    expect(keys.length).toBe(4);
    expect(new Set(keys)).toEqual(new Set([`payout:${paid.id}`]));

    await run(); // a paid payout is never sent again
    expect(
      [...stripe.objects.values()].filter((o) => o.object === 'transfer' && o.destination === 'acct_1TestConnected'),
    ).toHaveLength(1);
    await assertInvariants();
  });

  it('pays once when Stripe made the transfer but its answer was lost, after Stripe forgot the idempotency key', async () => {
    daysAhead = 15;
    const { product, owner } = await splitProduct('Lost Answer Course', 10_000, false);
    await db()('payoutRecipients').insert({ userId: owner.id, stripeAccountId: 'acct_1LostAnswer' });
    await sell(product.id);
    // A replica whose calls to Stripe give up quickly: Stripe acts, its answers come too late, every retry too.
    const impatient = createServices(
      testDeps(db(), {
        config: testConfig({ ...standInEnv(stripe), STRIPE_TIMEOUT_MS: '300' }),
        clock: { now: () => new Date(Date.now() + daysAhead * DAY_MS) },
      }),
    );
    stripe.delayNext('POST /v1/transfers', 1_000, 3);
    const lost = await impatient.payouts.run({ id: null, email: 'system' }, null);
    expect(lost).toMatchObject({ created: 1, sent: 0, failed: 1 });
    const transfers = () =>
      [...stripe.objects.values()].filter((o) => o.object === 'transfer' && o.destination === 'acct_1LostAnswer');
    expect(transfers()).toHaveLength(1); // Stripe did pay
    const [lostPayout] = await payoutsOf(owner.id);
    expect(lostPayout).toMatchObject({ status: 'failed' });
    // Paying it by hand now would pay it twice.
    const byHand = await as(finance, request(app).post(`/api/admin/payouts/${lostPayout.id}/mark-paid`)).send({
      reference: 'BANK-LOST',
    });
    expect(byHand.status).toBe(409);
    expect(byHand.body.code).toBe('payout-sent-by-stripe');
    // The next run is a month later: the key that would have given the same transfer back is long gone.
    stripe.forgetIdempotencyKeys();

    await run();
    const [paid, ...more] = await payoutsOf(owner.id);
    expect(more).toEqual([]);
    expect(transfers()).toHaveLength(1);
    expect(transfers()[0]).toMatchObject({ transfer_group: paid.id, metadata: { payoutId: paid.id } });
    expect(paid).toMatchObject({ status: 'paid', reference: transfers()[0]!.id, error: null });
    await assertInvariants();
  });

  it('keeps a Stripe payee while a payout to them is unpaid, and lets finance pay a failed one by hand only if Stripe made no transfer', async () => {
    daysAhead = 15;
    const { product, owner } = await splitProduct('Stranded Course', 10_000, false);
    const connected = await as(finance, request(app).post('/api/admin/payout-recipients')).send({
      userId: owner.id,
      stripeAccountId: 'acct_1Stranded',
    });
    expect(connected.status).toBe(201);
    await sell(product.id);
    stripe.failNext('POST /v1/transfers', 3);
    expect(await run()).toMatchObject({ created: 1, failed: 1 });
    const [failed] = await payoutsOf(owner.id);
    expect(failed).toMatchObject({ method: 'stripe', status: 'failed' });

    const removed = await as(finance, request(app).delete(`/api/admin/payout-recipients/${connected.body.id}`));
    expect(removed.status).toBe(409);
    expect(removed.body.code).toBe('payout-recipient-has-unpaid-payouts');
    expect(await db()('payoutRecipients').where({ id: connected.body.id })).toHaveLength(1);

    // Stripe holds no transfer for it (the stand-in failed before acting): finance may pay it by hand.
    const paidByHand = await as(finance, request(app).post(`/api/admin/payouts/${failed.id}/mark-paid`)).send({
      reference: 'BANK-7',
    });
    expect(paidByHand.status).toBe(200);
    expect(paidByHand.body.data).toMatchObject({ id: failed.id, status: 'paid', reference: 'BANK-7' });
    expect(await balanceOf(owner.id)).toMatchObject({ paid: failed.amount, inPayouts: 0 });
    const gone = await as(finance, request(app).delete(`/api/admin/payout-recipients/${connected.body.id}`));
    expect(gone.status).toBe(200);
    await assertInvariants();
  });

  it('refuses to pay by hand a Stripe payout a run is sending, and sends it again only once that sender is surely gone', async () => {
    daysAhead = 15;
    const { product, owner } = await splitProduct('Claimed Course', 10_000, false);
    const connected = await as(finance, request(app).post('/api/admin/payout-recipients')).send({
      userId: owner.id,
      stripeAccountId: 'acct_1Claimed',
    });
    expect(connected.status).toBe(201);
    await sell(product.id);
    stripe.failNext('POST /v1/transfers', 3);
    expect(await run()).toMatchObject({ created: 1, failed: 1 });
    const [failed] = await payoutsOf(owner.id);
    expect(failed).toMatchObject({ method: 'stripe', status: 'failed', sendingSince: null });

    // A run on another replica has claimed it and is waiting for Stripe's answer.
    await db()('payouts').where({ id: failed.id }).update({ sendingSince: db().fn.now() });
    const byHand = await as(finance, request(app).post(`/api/admin/payouts/${failed.id}/mark-paid`)).send({
      reference: 'BANK-9',
    });
    expect(byHand.status).toBe(409);
    expect(byHand.body.code).toBe('payout-being-sent');
    expect(await run()).toMatchObject({ created: 0, sent: 0, failed: 0 });
    expect((await payoutsOf(owner.id))[0]).toMatchObject({ status: 'failed' });

    // That sender died: once its claim is older than any sender lives, the next run looks for the transfer and sends.
    await db()('payouts')
      .where({ id: failed.id })
      .update({ sendingSince: db().raw("now() - interval '16 minutes'") });
    expect(await run()).toMatchObject({ sent: 1, failed: 0 });
    expect((await payoutsOf(owner.id))[0]).toMatchObject({ status: 'paid', sendingSince: null });
    await assertInvariants();
  });

  it('fails a Stripe payout whose payee is gone rather than skipping it, so finance can pay it by hand', async () => {
    daysAhead = 15;
    const { product, owner } = await splitProduct('Gone Payee Course', 10_000, false);
    await db()('payoutRecipients').insert({ userId: owner.id, stripeAccountId: 'acct_1GonePayee' });
    await sell(product.id);
    stripe.failNext('POST /v1/transfers', 3);
    await run();
    const [payout] = await payoutsOf(owner.id);
    expect(payout).toMatchObject({ method: 'stripe', status: 'failed' });
    // Removed before deletes were guarded (or straight from the database): no run can send it any more.
    await db()('payoutRecipients').where({ userId: owner.id }).delete();

    expect(await run()).toMatchObject({ created: 0, sent: 0 });
    const [stranded] = await payoutsOf(owner.id);
    expect(stranded).toMatchObject({ status: 'failed', error: expect.stringContaining('no connected Stripe account') });
    const paid = await as(finance, request(app).post(`/api/admin/payouts/${payout.id}/mark-paid`)).send({
      reference: 'BANK-GONE',
    });
    expect(paid.status).toBe(200);
    expect(paid.body.data).toMatchObject({ status: 'paid', reference: 'BANK-GONE' });
    await assertInvariants();
  });

  it('pays a balance past 2^31 cents in one payout (years of sales of a best seller)', async () => {
    daysAhead = 15;
    const { product, owner } = await splitProduct('Best Seller Course', 10_000, false);
    const { charge } = await sell(product.id);
    const line = { merchantChargeId: charge.id, productId: product.id, recipientType: 'owner', kind: 'sale' };
    await db()('splitLines').insert(
      [1_500_000_000, 1_500_000_000].map((amount) => ({ ...line, userId: owner.id, amount, currency: 'usd' })),
    );
    await run();
    const [payout] = await payoutsOf(owner.id);
    expect(payout.amount).toBe(sum(await linesOf(owner.id)));
    expect(payout.amount).toBeGreaterThan(2 ** 31);
    expect(await balanceOf(owner.id)).toMatchObject({ inPayouts: payout.amount, payable: 0 });
    await assertInvariants();
  });

  it('marks a manual payout paid once: the same reference again is fine, another one is refused', async () => {
    daysAhead = 15;
    const { product, owner } = await splitProduct('Manual Course', 10_000, false);
    await sell(product.id);
    await run();
    const [payout] = await payoutsOf(owner.id);
    const mark = (id: string, body: object) =>
      as(finance, request(app).post(`/api/admin/payouts/${id}/mark-paid`)).send(body);

    expect((await mark(payout.id, {})).status).toBe(400);
    expect((await mark(payout.id, { reference: '  ' })).status).toBe(400);
    expect((await mark('00000000-0000-4000-8000-000000000000', { reference: 'X' })).status).toBe(404);
    expect((await mark(payout.id, { reference: 'BANK-42' })).status).toBe(200);
    const again = await mark(payout.id, { reference: 'BANK-42' });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ id: payout.id, status: 'paid', reference: 'BANK-42' });
    const other = await mark(payout.id, { reference: 'BANK-43' });
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('payout-already-paid');

    const audit = await db()('auditLogs').where({ resource: 'payouts' }).pluck('action');
    expect(audit).toEqual(expect.arrayContaining(['payout.run', 'payout.marked-paid', 'payout.paid', 'payout.failed']));
    expect((await db()('auditLogs').where({ recordId: payout.id, action: 'payout.marked-paid' })).length).toBe(1);
    expect(await balanceOf(owner.id)).toMatchObject({ paid: payout.amount, balance: 0, inPayouts: 0 });
    await assertInvariants();
  });

  it('lists and exports payouts like every console resource, to finance only', async () => {
    const list = await as(finance, request(app).get('/api/admin/payouts')).query({
      filter: JSON.stringify({ status: 'paid', currency: 'usd' }),
      sort: JSON.stringify(['amount', 'DESC']),
      range: JSON.stringify([0, 1]),
    });
    expect(list.status).toBe(200);
    expect(list.headers['content-range']).toMatch(/^payouts 0-1\/\d+$/);
    expect(list.body.length).toBe(2);
    expect(list.body.every((p: { status: string }) => p.status === 'paid')).toBe(true);
    expect(list.body[0].amount).toBeGreaterThanOrEqual(list.body[1].amount);

    const csv = await as(finance, request(app).get('/api/admin/payouts/export.csv')).query({
      filter: JSON.stringify({ status: 'paid' }),
    });
    expect(csv.status).toBe(200);
    expect(csv.text.split('\n')[0]).toContain('Recipient email');
    expect(csv.text).toContain('BANK-42');

    for (const [method, path] of [
      ['get', '/api/admin/payouts'],
      ['get', '/api/admin/payouts/balances'],
      ['post', '/api/admin/payouts/run'],
      ['get', '/api/admin/payout-recipients'],
    ] as const) {
      expect((await as(support, request(app)[method](path))).status).toBe(403);
    }
    expect((await as(finance, request(app).get('/api/admin/payout-recipients'))).status).toBe(200);
  });

  it('runs by itself on the first of each month, once however many replicas start', async () => {
    const replicas = [1, 2, 3].map(() => jobQueue({ db: db(), logger: createLogger('silent'), pollSeconds: 0.5 }));
    replicas.forEach((jobs) => definePayoutJobs(jobs, services.payouts));
    try {
      await Promise.all(replicas.map((jobs) => jobs.start()));
      const schedules = await db()
        .withSchema(JOBS_SCHEMA)
        .from('schedule')
        .where({ name: MONTHLY_PAYOUT_RUN })
        .select('name', 'cron');
      expect(schedules).toEqual([{ name: MONTHLY_PAYOUT_RUN, cron: '0 6 1 * *' }]);
      // The month's job, as the schedule adds it: a run started by the system.
      await replicas[0]!.add(db(), MONTHLY_PAYOUT_RUN, {});
      await expect
        .poll(async () => (await db()('payoutRuns').whereNull('startedById')).length, { timeout: 20_000 })
        .toBe(1);
    } finally {
      await Promise.all(replicas.map((jobs) => jobs.stop()));
    }
  });
});
