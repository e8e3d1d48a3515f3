import request from 'supertest';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Coupon, OutboxEmail, Purchase } from '../support/models';
import { JOBS_SCHEMA } from '../../api/src/jobs/models';
import { EXPIRE_CHECKOUTS, EXPIRE_TRANSFERS } from '../../api/src/jobs/recurring';
import { createServices } from '../../api/src/services';
import { createCoupon, createProduct } from '../../seeds/factories';
import { testDeps } from '../support/app';
import { as, signedIn } from '../support/auth';
import { boughtWithTestProvider } from '../support/checkout';
import { useTestDatabase } from '../support/db';
import { startHaproxy, type LoadBalancer } from '../support/haproxy';
import { startPgBouncer, type PgBouncer } from '../support/pgbouncer';
import { startReplica, type Replica } from '../support/replica';
import { startSmtpRelay, type SmtpRelay } from '../support/smtp-relay';
import { count, inBatches } from './harness';

/** pg-boss's own queue of schedule slots: one job per schedule and minute, its data naming the schedule. */
const SCHEDULE_SEND_IT = '__pgboss__send-it';

const READ_CACHE_MS = 1000;

/**
 * Three API processes on one PostgreSQL behind HAProxy, the third through PgBouncer in transaction mode, an SMTP
 * relay that can hang; replicas killed with SIGKILL mid-work. Money, seats and emails stay exact across them.
 */
describe('three replicas behind a load balancer', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  let bouncer: PgBouncer;
  let relay: SmtpRelay;
  let balancer: LoadBalancer;
  const replicas: Replica[] = [];
  const ports: number[] = [];
  const measured: Record<string, unknown> = {};

  const envOf = (n: number, publicUrl: string): NodeJS.ProcessEnv => ({
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: n === 3 ? bouncer.through(database().url) : database().url,
    DB_PGBOUNCER: n === 3 ? 'true' : 'false',
    DB_POOL_MAX: '5',
    MIGRATE_ON_START: 'false', // the release step already ran: the test database is migrated
    PUBLIC_URL: publicUrl,
    SMTP_URL: relay.url,
    // Which replica sent a message, as the relay sees it.
    MAIL_FROM: `Courses <replica-${n}@example.com>`,
    SMTP_TIMEOUT_MS: '1000',
    EMAIL_RETRY_SECONDS: '1',
    JOB_POLL_SECONDS: '0.5',
    READ_CACHE_MS: String(READ_CACHE_MS),
    COMMERCE_LIMIT_SCALE: '1000',
  });
  const replica = (n: number) => replicas[n - 1]!;
  const restart = async (n: number) => {
    replicas[n - 1] = await startReplica(`replica-${n}`, envOf(n, balancer.url), ports[n - 1]);
  };
  const restartKilled = () =>
    Promise.all(
      replicas.map((r, i) =>
        r.started.child.exitCode === null && !r.started.child.signalCode ? null : restart(i + 1),
      ),
    );

  beforeAll(async () => {
    bouncer = await startPgBouncer(inject('databaseServerUrl'), { serverConnections: 4 });
    relay = await startSmtpRelay();
    // The balancer's address is every replica's PUBLIC_URL; its ports are chosen first, the replicas start after. A
    // port free when chosen may be taken by another process before a replica binds it: then all start again, on new
    // ports (the balancer names them in its configuration).
    const { freePort } = await import('../support/processes');
    for (let attempt = 1; ; attempt++) {
      ports.length = 0;
      for (let n = 1; n <= 3; n++) ports.push(await freePort());
      balancer = await startHaproxy(ports);
      const started = await Promise.allSettled([1, 2, 3].map((n) => restart(n)));
      const failure = started.find((s) => s.status === 'rejected');
      if (!failure) break;
      const taken = /EADDRINUSE/.test(String((failure as PromiseRejectedResult).reason));
      if (!taken || attempt === 3) throw (failure as PromiseRejectedResult).reason;
      await Promise.all(started.map((s, i) => (s.status === 'fulfilled' ? replicas[i]!.stop() : null)));
      replicas.length = 0;
      await balancer.stop();
    }
  }, 240_000);

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await balancer?.stop();
    await relay?.close();
    await bouncer?.stop();
    // The numbers the stop note quotes.
    process.stdout.write(`scale-out: ${JSON.stringify(measured)}\n`);
  });

  /** Answers come from every replica: the balancer spreads requests. */
  const viaBalancer = () => request(balancer.url);

  it('fulfils every paid checkout exactly once when the payment and the thank-you page hit different replicas (N > seats gives seats)', async () => {
    const seats = 30;
    const product = await createProduct(db(), { name: 'Scale Workshop', unitAmount: 5_000, quantityAvailable: seats });
    const buyers = Array.from({ length: 45 }, (_, i) => `scale-${i}@example.com`);
    const outcomes = await inBatches(buyers, 9, async (email, i) => {
      const started = await viaBalancer().post('/api/store/checkout').send({ productId: product.id, email });
      if (started.status !== 201) return { email, started: started.status, checkoutId: null };
      const { checkoutId, url } = started.body as { checkoutId: string; url: string };
      const paymentPage = new URL(url).pathname;
      // Pay on one replica while the thank-you page asks the other two at the same moment.
      const payAt = replica((i % 3) + 1);
      const others = replicas.filter((r) => r !== payAt);
      const [paid] = await Promise.all([
        request(payAt.url).post(`${paymentPage}/pay`),
        ...others.map((r) => request(r.url).get(`/api/store/checkouts/${checkoutId}`)),
      ]);
      expect(paid.status).toBe(303);
      return { email, started: 201, checkoutId };
    });
    const checkoutIds = outcomes.flatMap((o) => (o.checkoutId ? [o.checkoutId] : []));
    // Every paid checkout settles (the thank-you page's polling, through the balancer).
    for (const id of checkoutIds) {
      await expect
        .poll(async () => (await viaBalancer().get(`/api/store/checkouts/${id}`)).body.status, { timeout: 30_000 })
        .toMatch(/^(fulfilled|refunded)$/);
    }
    const purchases = await Purchase.query(db()).where('productId', product.id);
    const perCheckout = await db()('checkouts').whereIn('id', checkoutIds).select('id', 'status', 'purchaseId');
    expect(new Set(purchases.map((p) => p.id)).size).toBe(purchases.length);
    expect(purchases.filter((p) => p.status === 'Valid')).toHaveLength(seats);
    expect(perCheckout.filter((c) => c.status === 'fulfilled')).toHaveLength(seats);
    const refunded = perCheckout.filter((c) => c.status === 'refunded').length;
    // No checkout got two purchases; a paid one past the last seat was refunded instead.
    expect(new Set(perCheckout.flatMap((c) => (c.purchaseId ? [c.purchaseId] : []))).size).toBe(
      perCheckout.filter((c) => c.purchaseId).length,
    );
    expect(refunded).toBe(checkoutIds.length - seats);
    measured.checkouts = {
      buyers: buyers.length,
      seats,
      paid: checkoutIds.length,
      refusedAtStart: buyers.length - checkoutIds.length,
      fulfilled: seats,
      refundedPastTheLastSeat: refunded,
    };
  });

  it('counts a limited coupon exactly across replicas: 30 buyers racing for 10 uses get 10', async () => {
    const product = await createProduct(db(), { name: 'Coupon Race Course', unitAmount: 8_000 });
    const coupon = await createCoupon(db(), { code: 'SCALE10', percentageDiscount: 0.25, maxUses: 10 });
    const answers = await inBatches(
      Array.from({ length: 30 }, (_, i) => i),
      15,
      async (i) => {
        const started = await viaBalancer()
          .post('/api/store/checkout')
          .send({ productId: product.id, email: `coupon-${i}@example.com`, coupon: 'SCALE10' });
        if (started.status !== 201) return `${started.status} ${started.body.code}`;
        const paid = await request(replica((i % 3) + 1).url).post(`${new URL(started.body.url).pathname}/pay`);
        expect(paid.status).toBe(303);
        return 201;
      },
    );
    expect(answers.filter((s) => s === 201)).toHaveLength(10);
    expect(new Set(answers.filter((s) => s !== 201))).toEqual(new Set(['400 coupon-not-valid']));
    await expect
      .poll(async () => count(db()('purchases').where({ couponId: coupon.id, status: 'Valid' })), { timeout: 30_000 })
      .toBe(10);
    expect((await Coupon.query(db()).findById(coupon.id))!.usedCount).toBe(10);
    measured.couponRace = { racing: 30, uses: 10, granted: answers.filter((s) => s === 201).length };
  });

  it('gives a team of 6 seats to exactly 6 of 15 people redeeming its invite at once on different replicas', async () => {
    const services = createServices(testDeps(db()));
    const course = await createProduct(db(), { name: 'Team Scale Course', unitAmount: 10_000 });
    const owner = await signedIn(db());
    const teamId = await boughtWithTestProvider(services, db(), {
      buyer: owner.user,
      productId: course.id,
      quantity: 6,
      team: true,
    });
    const coupon = (await Coupon.query(db()).findById((await Purchase.query(db()).findById(teamId))!.bulkCouponId!))!;
    const people = await Promise.all(Array.from({ length: 15 }, () => signedIn(db())));
    const answers = await Promise.all(
      people.map((person, i) =>
        as(person, request(replica((i % 3) + 1).url).post(`/api/store/invites/${coupon.inviteCode}/redeem`)).send(),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(6);
    expect(await Purchase.query(db()).where({ redeemedBulkCouponId: coupon.id }).resultSize()).toBe(6);
    measured.seatRace = { seats: 6, racing: 15, taken: answers.filter((a) => a.status === 201).length };
  });

  it('delivers every email exactly once while the SMTP server hangs, and with replicas killed mid-delivery', async () => {
    // 1. The relay hangs: every replica's sends time out (SMTP_TIMEOUT_MS) and go back to the queue.
    relay.hang(true);
    const people = Array.from({ length: 20 }, (_, i) => `mail-${i}@example.com`);
    await inBatches(people, 5, (email) => viaBalancer().post('/api/store/auth/email').send({ email }).expect(202));
    // 2. Replica 2 is killed while it waits on the relay with a message half-sent.
    await expect.poll(() => relay.held.some((m) => m.from === 'replica-2@example.com'), { timeout: 30_000 }).toBe(true);
    await replica(2).kill();
    await expect.poll(() => relay.held.length, { timeout: 30_000 }).toBeGreaterThan(3);
    // 3. The relay answers again, but replica 3 dies the moment after the relay kept its first message: that
    //    email was delivered and never marked sent, so another replica sends it again, with the same Message-ID.
    let killedAfterAccept: string | null = null;
    relay.beforeAnswering(async (message) => {
      if (killedAfterAccept || message.from !== 'replica-3@example.com') return;
      killedAfterAccept = message.messageId;
      await replica(3).kill();
    });
    relay.hang(false);
    const started = Date.now();
    await expect
      .poll(async () => count(db()('outboxEmails').whereNot('status', 'sent')), { timeout: 120_000, interval: 500 })
      .toBe(0);
    measured.allSentAfterRelayRecoveredMs = Date.now() - started;
    relay.beforeAnswering(null);

    // (The team bought in the seat test was bought through this process, which has no SMTP.)
    const emails = await OutboxEmail.query(db()).where('transport', 'smtp');
    const messageIds = emails.map((e) => `<${e.id}@example.com>`);
    // Every email reached the inbox exactly once: one per Message-ID, each the email's own id.
    expect([...relay.inbox.keys()].sort()).toEqual(messageIds.sort());
    for (const email of emails) expect(relay.inbox.get(`<${email.id}@example.com>`)!.to).toEqual([email.toAddress]);
    // The one sent twice (if replica 3 was caught mid-answer) was a copy the relay dropped by its Message-ID.
    const copies = relay.attempts.filter((m) => !relay.held.includes(m)).length - relay.inbox.size;
    expect(copies).toBe(relay.duplicatesDropped());
    if (killedAfterAccept) expect(relay.duplicatesDropped()).toBeGreaterThanOrEqual(1);
    measured.emails = {
      emails: emails.length,
      signInEmailsInThisTest: people.length,
      relayAttempts: relay.attempts.length,
      timedOutWhileHanging: relay.held.length,
      delivered: relay.inbox.size,
      duplicatesDroppedByMessageId: relay.duplicatesDropped(),
      killedAfterAccept: Boolean(killedAfterAccept),
    };
  });

  it('refuses a signed-out session and a removed role on every replica once READ_CACHE_MS has passed', async () => {
    await restartKilled();
    const learner = await signedIn(db());
    const staff = await signedIn(db(), ['support']);
    const admin = await signedIn(db(), ['admin']);
    // Each replica has just answered them, so each holds them in its cache.
    for (const r of replicas) {
      expect((await as(learner, request(r.url).get('/api/store/purchases'))).status).toBe(200);
      expect((await as(staff, request(r.url).get('/api/admin/products'))).status).toBe(200);
    }
    const signedOutAt = Date.now();
    expect((await as(learner, request(replica(1).url).post('/api/store/auth/sign-out'))).status).toBe(204);
    const demotedAt = Date.now();
    const demoted = await as(admin, request(replica(2).url).put(`/api/admin/users/${staff.user.id}`)).send({
      roles: ['learner'],
    });
    expect(demoted.status).toBe(200);

    // How long each replica kept answering (measured), and that none does after READ_CACHE_MS (asserted).
    const until = async (since: number, ask: () => Promise<number>, refused: number) => {
      for (;;) {
        if ((await ask()) === refused) return Date.now() - since;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const revocationMs = await Promise.all(
      replicas.map((r) =>
        until(signedOutAt, async () => (await as(learner, request(r.url).get('/api/store/purchases'))).status, 401),
      ),
    );
    const demotionMs = await Promise.all(
      replicas.map((r) =>
        until(demotedAt, async () => (await as(staff, request(r.url).get('/api/admin/products'))).status, 403),
      ),
    );
    const waitFrom = Math.max(signedOutAt, demotedAt) + READ_CACHE_MS;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, waitFrom - Date.now())));
    for (const r of replicas) {
      expect((await as(learner, request(r.url).get('/api/store/purchases'))).status).toBe(401);
      expect((await as(staff, request(r.url).get('/api/admin/products'))).status).toBe(403);
    }
    measured.revocationMs = revocationMs;
    measured.demotionMs = demotionMs;
  });

  it('runs each scheduled sweep once per minute across the three replicas', async () => {
    // pg-boss turns a schedule into one "send it" job per minute slot (a unique key per slot, whichever replica's
    // clock gets there first), and its worker adds the sweep job itself. Under load a worker can add two slots'
    // sweeps in the same clock minute, so the count that must hold is per slot, not per clock minute.
    const jobs = () => db().withSchema(JOBS_SCHEMA).from('job');
    const slots = async (name: string) =>
      (await jobs()
        .where({ name: SCHEDULE_SEND_IT })
        .whereRaw(`data->>'name' = ?`, [name])
        .select('state', 'singletonOn')) as { state: string; singletonOn: Date }[];
    const sweeps = async (name: string) => (await jobs().where({ name }).pluck('state')) as string[];
    // Two minute marks passed under three replicas (the earlier tests took some of that time).
    await expect
      .poll(async () => (await sweeps(EXPIRE_CHECKOUTS)).length, { timeout: 150_000, interval: 2_000 })
      .toBeGreaterThanOrEqual(2);
    for (const name of [EXPIRE_CHECKOUTS, EXPIRE_TRANSFERS]) {
      // Each slot's "send it" done has added exactly one sweep (polled: the sweep is added just before it is done).
      await expect
        .poll(async () => {
          const done = (await slots(name)).filter((slot) => slot.state === 'completed').length;
          return (await sweeps(name)).length - done;
        })
        .toBe(0);
      const all = await slots(name);
      expect(new Set(all.map((slot) => slot.singletonOn.toISOString())).size).toBe(all.length);
      const states = await sweeps(name);
      expect(states.every((s) => s === 'completed' || s === 'created' || s === 'active')).toBe(true);
    }
    measured.sweepMinutes = (await sweeps(EXPIRE_CHECKOUTS)).length;
  }, 200_000);
});
