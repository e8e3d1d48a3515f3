import request, { type Response } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PayoutBalance } from '../../api/src/finance/payouts/schemas';
import { createProduct, createUser } from '../../seeds/factories';
import { TEST_MERCHANT_ACCOUNT } from '../../seeds/reference';
import { as, signedIn, type SignedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { expectPayoutInvariants } from '../support/payout-invariants';
import { startReplica, type Replica } from '../support/replica';
import { standInEnv, startStripeStandIn, type StandIn } from '../support/stripe-stand-in';

const DAY_MS = 86_400_000;
const PAID_BY_STRIPE = 24;
const PAID_BY_HAND = 8;
/** The transfers held long enough to kill their sender while Stripe has made them and not yet answered. */
const HELD_TRANSFERS = 3;

/**
 * Payout runs on two replicas of the server with Stripe configured (docs/domain.md §19): a replica killed with
 * SIGKILL while its run sends transfers (one made by Stripe, its answer never heard), and one killed inside a run's
 * transaction. Runs on the other replica afterwards pay every recipient exactly once: one transfer per payout, one
 * payout per recipient, and the balances agree with the ledger.
 */
describe('payouts when a replica is killed mid-run', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let stripe: StandIn;
  let finance: SignedIn;
  const replicas: Replica[] = [];
  const viaStripe: string[] = [];
  const byHand: string[] = [];

  const envOf = (): NodeJS.ProcessEnv => ({
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: database().url,
    DB_POOL_MAX: '5',
    MIGRATE_ON_START: 'false',
    PUBLIC_URL: 'http://127.0.0.1',
    JOB_POLL_SECONDS: '0.5',
    COMMERCE_LIMIT_SCALE: '1000',
    ...standInEnv(stripe),
  });

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    finance = await signedIn(db(), ['finance']);
    // Every recipient's sale, past the holding period, and for some a refund since: payable balances of different sizes.
    const product = await createProduct(db(), { name: 'Replica Course', unitAmount: 10_000 });
    await db()('merchantAccounts').insert(TEST_MERCHANT_ACCOUNT).onConflict().ignore();
    const account = await db()('merchantAccounts').where({ label: TEST_MERCHANT_ACCOUNT.label }).first('id');
    const [merchantProduct] = await db()('merchantProducts')
      .insert({ merchantAccountId: account.id, identifier: 'prod_replica_kill', productId: product.id })
      .returning('id');
    const [charge] = await db()('merchantCharges')
      .insert({
        merchantAccountId: account.id,
        identifier: 'ch_replica_kill',
        amount: 10_000,
        fee: 320,
        net: 9_680,
        currency: 'usd',
        userId: (await createUser(db(), { email: 'replica.buyer@example.com' })).id,
        merchantProductId: merchantProduct.id,
      })
      .returning('id');
    const lines = [];
    for (let i = 0; i < PAID_BY_STRIPE + PAID_BY_HAND; i++) {
      const recipient = await createUser(db(), { email: `payee-${i}@example.com`, name: `Payee ${i}` });
      (i < PAID_BY_STRIPE ? viaStripe : byHand).push(recipient.id);
      const line = {
        merchantChargeId: charge.id,
        productId: product.id,
        recipientType: 'owner',
        userId: recipient.id,
        currency: 'usd',
        createdAt: new Date(Date.now() - 30 * DAY_MS),
      };
      lines.push({ ...line, kind: 'sale', amount: 5_000 + 100 * i });
      if (i % 3 === 0) lines.push({ ...line, kind: 'refund', amount: -1_000, createdAt: new Date() });
    }
    await db()('splitLines').insert(lines);
    await db()('payoutRecipients').insert(
      viaStripe.map((userId, i) => ({ userId, stripeAccountId: `acct_replica${i}` })),
    );
    replicas.push(...(await Promise.all([1, 2].map((n) => startReplica(`replica-${n}`, envOf())))));
  }, 240_000);

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await stripe?.close();
  });

  const run = (replica: Replica) => as(finance, request(replica.url).post('/api/admin/payouts/run')).send({});
  const balances = async (replica: Replica): Promise<PayoutBalance[]> => {
    const answer = await as(finance, request(replica.url).get('/api/admin/payouts/balances'));
    expect(answer.status).toBe(200);
    return answer.body.data;
  };
  /** Stripe's transfers by payout (their transfer group). */
  const transfersByPayout = () => {
    const groups = new Map<string, number>();
    for (const o of stripe.objects.values())
      if (o.object === 'transfer')
        groups.set(String(o.transfer_group), (groups.get(String(o.transfer_group)) ?? 0) + 1);
    return groups;
  };
  const payouts = () => db()('payouts').orderBy('createdAt').select('*');

  it('leaves nothing of a run whose replica died inside its transaction', async () => {
    const [first] = replicas;
    // One line held here (as a correction would hold it): the run has written itself and its payouts, and waits to
    // link that line, inside its transaction, when its replica dies.
    const holder = await db().transaction();
    try {
      const [line] = await holder('splitLines').where({ userId: byHand[0] }).forUpdate().select('id');
      expect(line).toBeDefined();
      const waitingOnTheLine = async () =>
        (
          await db().raw(
            `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'
                AND query LIKE '%INSERT INTO payout_lines%'`,
          )
        ).rows[0].n as number;
      // A run that answers before it reaches the held line cannot have paid (the line is locked): on a loaded machine
      // that is a connection not had in time, so the run is asked again, up to three times.
      let started: Promise<unknown> = Promise.resolve(null);
      for (let attempt = 1; attempt <= 3; attempt++) {
        const outcome: { answered?: Response } = {};
        started = run(first!).then(
          (response) => ((outcome.answered = response), null),
          (error: unknown) => error,
        );
        await expect
          .poll(async () => (outcome.answered ? -1 : await waitingOnTheLine()), { timeout: 60_000 })
          .not.toBe(0);
        const { answered } = outcome;
        if (!answered) break;
        expect(answered.status).not.toBe(200);
        console.warn(`payout run answered ${answered.status} before waiting: ${JSON.stringify(answered.body)}`);
        expect(attempt).toBeLessThan(3);
      }
      expect(await waitingOnTheLine()).toBe(1);
      await first!.kill();
      expect(await started).toBeTruthy(); // the request died with its replica
    } finally {
      await holder.rollback();
    }
    // Its connection gone, PostgreSQL rolled the transaction back: no run, no payout, no line covered.
    await expect
      .poll(
        async () =>
          (
            await db()
              .raw(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
        AND query LIKE '%INSERT INTO payout_lines%' AND state <> 'idle'`)
          ).rows[0].n,
        { timeout: 30_000 },
      )
      .toBe(0);
    expect(await db()('payoutRuns').first()).toBeUndefined();
    expect(await payouts()).toEqual([]);
    expect(await db()('payoutLines').first()).toBeUndefined();
    replicas[0] = await startReplica('replica-1', envOf());
  });

  it('pays every recipient exactly once when the replica sending transfers is killed and another runs again', async () => {
    const [first, second] = replicas;
    // The first transfers are made by Stripe and answered late: the replica dies while it waits for the third.
    stripe.delayNext('POST /v1/transfers', 5_000, HELD_TRANSFERS);
    const dying = run(first!).then(
      () => null,
      (error: unknown) => error,
    );
    await expect.poll(() => stripe.calls.get('POST /v1/transfers') ?? 0, { timeout: 30_000 }).toBe(HELD_TRANSFERS);
    await first!.kill();
    expect(await dying).toBeTruthy();

    const made = await payouts();
    expect(made).toHaveLength(PAID_BY_STRIPE + PAID_BY_HAND);
    expect(made.filter((p) => p.status === 'paid')).toHaveLength(HELD_TRANSFERS - 1);
    // The payout whose transfer Stripe made while its sender died: claimed, not paid, its transfer at Stripe.
    const [lost] = made.filter((p) => p.sendingSince && p.status !== 'paid');
    expect(lost).toMatchObject({ method: 'stripe', status: 'pending' });
    expect(transfersByPayout().get(lost.id)).toBe(1);

    // The other replica's run sends the rest and leaves the claimed payout to its sender while the claim holds.
    const again = await run(second!);
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ created: 0, sent: PAID_BY_STRIPE - HELD_TRANSFERS, failed: 0 });
    expect((await db()('payouts').where({ id: lost.id }).first()).status).toBe('pending');
    // Finance cannot pay it by hand: Stripe holds its transfer.
    const byHandRefused = await as(finance, request(second!.url).post(`/api/admin/payouts/${lost.id}/mark-paid`)).send({
      reference: 'BANK-LOST',
    });
    expect(byHandRefused.status).toBe(409);
    expect(byHandRefused.body.code).toBe('payout-sent-by-stripe');

    // Once the claim is older than any sender lives, a run looks for its transfer and adopts it: no second transfer.
    await db()('payouts')
      .where({ id: lost.id })
      .update({ sendingSince: db().raw(`now() - interval '16 minutes'`) });
    const transfersBefore = stripe.calls.get('POST /v1/transfers');
    const last = await run(second!);
    expect(last.body.data).toMatchObject({ created: 0, sent: 1, failed: 0 });
    expect(stripe.calls.get('POST /v1/transfers')).toBe(transfersBefore);

    // Those paid by hand: each marked once, from either replica; a second mark with another reference is refused.
    const manual = (await payouts()).filter((p) => p.method === 'manual');
    expect(manual.map((p) => p.recipientId).sort()).toEqual([...byHand].sort());
    replicas[0] = await startReplica('replica-1', envOf());
    for (const [i, p] of manual.entries()) {
      const at = replicas[i % 2]!;
      const marked = await as(finance, request(at.url).post(`/api/admin/payouts/${p.id}/mark-paid`)).send({
        reference: `BANK-${i}`,
      });
      expect(marked.status).toBe(200);
    }
    const twice = await as(finance, request(second!.url).post(`/api/admin/payouts/${manual[0]!.id}/mark-paid`)).send({
      reference: 'BANK-OTHER',
    });
    expect(twice.body.code).toBe('payout-already-paid');

    // Exactly once: one payout per recipient, one transfer per Stripe payout (and per idempotency key), all paid.
    const final = await payouts();
    expect(final.every((p) => p.status === 'paid')).toBe(true);
    expect(new Set(final.map((p) => p.recipientId)).size).toBe(PAID_BY_STRIPE + PAID_BY_HAND);
    expect(new Set(final.map((p) => p.runId)).size).toBe(1);
    const transfers = transfersByPayout();
    for (const p of final.filter((p) => p.method === 'stripe')) {
      expect(transfers.get(p.id), `transfers for payout ${p.id}`).toBe(1);
      expect(p.reference).toMatch(/^tr_/);
    }
    expect(transfers.size).toBe(PAID_BY_STRIPE);
    const keys = new Set(
      stripe.requests.filter((r) => r.template === 'POST /v1/transfers').map((r) => r.idempotencyKey),
    );
    expect([...keys].sort()).toEqual(
      final
        .filter((p) => p.method === 'stripe')
        .map((p) => `payout:${p.id}`)
        .sort(),
    );
    // Balances: nothing left to pay, paid + balance = earned − clawed back, as the ledger says.
    const read = await balances(second!);
    expect(read).toHaveLength(PAID_BY_STRIPE + PAID_BY_HAND);
    for (const b of read) expect(b).toMatchObject({ balance: 0, payable: 0, inPayouts: 0 });
    await expectPayoutInvariants(db(), read);
  });
});
