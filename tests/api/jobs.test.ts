import { pino } from 'pino';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../api/src/db/connection';
import { OutboxEmail } from '../support/models';
import { knexExecutor } from '../../api/src/jobs/knex-executor';
import { JOBS_SCHEMA } from '../../api/src/jobs/models';
import { jobQueue, type JobQueue } from '../../api/src/jobs/queue';
import {
  defineRecurringJobs,
  EXPIRE_CHECKOUTS,
  EXPIRE_TRANSFERS,
  PRUNE,
  WORKSHOP_REMINDERS,
} from '../../api/src/jobs/recurring';
import { createLogger } from '../../api/src/logger';
import { createServices } from '../../api/src/services';
import { outbox as createOutbox, SEND_EMAIL } from '../../api/src/mail/outbox';
import type { MailTransport } from '../../api/src/mail/transport';
import { testApp, testDeps } from '../support/app';
import { as, signedIn } from '../support/auth';
import { useTestDatabase } from '../support/db';
import { jobsOf, makeRetriesDue } from '../support/jobs';

const logger = createLogger('silent');

describe('the job queue', () => {
  const database = useTestDatabase();
  const db = () => database().db;

  it("runs pg-boss's numbered parameters through knex: repeated, beside a literal ?, rows keeping their names", async () => {
    const { rows } = await knexExecutor(db()).executeSql(
      `SELECT $2::int AS retry_count, $1::int + $2::int AS "startAfter", '?' AS mark, $2::int * 2 AS twice`,
      [2, 3],
    );
    expect(rows).toEqual([{ retry_count: 3, startAfter: 5, mark: '?', twice: 6 }]);

    // A failed run's error as pg-boss hands it over (serialize-error keeps a driver error's unset fields undefined).
    const failure = await knexExecutor(db()).executeSql(`SELECT $1::jsonb AS output`, [
      { name: 'error', message: 'terminating connection', hint: undefined, nested: { position: undefined } },
    ]);
    expect(failure.rows).toEqual([{ output: { name: 'error', message: 'terminating connection', nested: {} } }]);
  });

  it('delivers each email exactly once while two replicas drain the queue at the same time', async () => {
    const delivered = new Map<string, number>();
    const transport: MailTransport = {
      name: 'smtp',
      timeoutSeconds: 5,
      async send(email) {
        delivered.set(email.id!, (delivered.get(email.id!) ?? 0) + 1);
        await new Promise((resolve) => setImmediate(resolve));
      },
    };
    const replica = () => createOutbox({ db: db(), clock: { now: () => new Date() }, logger, transport });
    const [a, b, c] = [replica(), replica(), replica()];
    const ids = await db().transaction(async (trx) => {
      const written: string[] = [];
      for (let n = 0; n < 40; n++)
        written.push(await a.enqueue(trx, { kind: 'test', to: `r${n}@example.com`, subject: 'Hi', text: 'Hi' }));
      return written;
    });
    await Promise.all([a.flush(), b.flush(), c.flush(), a.flush()]);

    expect([...delivered.keys()].sort()).toEqual([...ids].sort());
    expect([...delivered.values()].every((times) => times === 1)).toBe(true);
    const rows = await OutboxEmail.query(db()).whereIn('id', ids);
    expect(rows.every((row) => row.status === 'sent' && row.attempts === 1)).toBe(true);
    const jobs = (await jobsOf(db(), SEND_EMAIL)).filter((job) => ids.includes(job.data.emailId as string));
    expect(jobs.map((job) => job.state)).toEqual(ids.map(() => 'completed'));
  });

  it('schedules pruning hourly, both expiry sweeps every minute and workshop reminders every 5 minutes (UTC), once however many replicas start', async () => {
    const replicas = [1, 2, 3].map(() => jobQueue({ db: db(), logger }));
    const work = {
      prune: async () => ({}),
      expireTransfers: async () => 0,
      expireCheckouts: async () => 0,
      sendWorkshopReminders: async () => 0,
    };
    replicas.forEach((jobs) => defineRecurringJobs(jobs, work, logger));
    try {
      await Promise.all(replicas.map((jobs) => jobs.start()));
      const schedules = await db().withSchema(JOBS_SCHEMA).from('schedule').orderBy('name').select('name', 'cron');
      expect(schedules).toEqual([
        { name: EXPIRE_CHECKOUTS, cron: '* * * * *' },
        { name: EXPIRE_TRANSFERS, cron: '* * * * *' },
        { name: PRUNE, cron: '0 * * * *' },
        { name: WORKSHOP_REMINDERS, cron: '*/5 * * * *' },
      ]);
    } finally {
      await Promise.all(replicas.map((jobs) => jobs.stop()));
    }
  });

  it("starts every kind of job the product declares on a migrated database: each one's queue exists", async () => {
    // A kind whose queue no migration creates stops a server's workers at boot (pg-boss: "Queue … not found").
    const { jobs } = createServices(testDeps(db()));
    try {
      await jobs.start();
      const queues = await db().withSchema(JOBS_SCHEMA).from('queue').pluck('name');
      const schedules = await db().withSchema(JOBS_SCHEMA).from('schedule').pluck('name');
      expect(schedules.length).toBeGreaterThan(0);
      expect(schedules.filter((name: string) => !queues.includes(name))).toEqual([]);
    } finally {
      await jobs.stop();
    }
  });

  it('stops taking jobs on shutdown, and waits for the one under way to finish', async () => {
    const name = 'test-slow';
    await db().raw(`SELECT ${JOBS_SCHEMA}.create_queue(?, ?::json)`, [name, JSON.stringify({ policy: 'standard' })]);
    const jobs = jobQueue({ db: db(), logger, pollSeconds: 0.5 });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const started: string[] = [];
    jobs.define({
      name,
      retryLimit: 0,
      retryDelaySeconds: 1,
      expireInSeconds: 60,
      run: async (data: { n: number }) => {
        started.push(String(data.n));
        await gate;
      },
    });
    await jobs.start();
    await jobs.add(db(), name, { n: 1 });
    await expect.poll(() => started).toEqual(['1']);

    let stopped = false;
    const stopping = jobs.stop().then(() => (stopped = true));
    await jobs.add(db(), name, { n: 2 }); // after stop began: left for another replica
    await expect.poll(async () => (await jobsOf(db(), name)).map((job) => job.state)).toEqual(['active', 'created']);
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect((await jobsOf(db(), name)).map((job) => job.state)).toEqual(['completed', 'created']);
    expect(started).toEqual(['1']);
  });

  it('logs a database that went away mid-job as one line without a stack, and retries the job', async () => {
    const name = 'test-database-away';
    await db().raw(`SELECT ${JOBS_SCHEMA}.create_queue(?, ?::json)`, [name, JSON.stringify({ policy: 'standard' })]);
    const lines: Array<Record<string, unknown>> = [];
    const capturing = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const jobs = jobQueue({ db: db(), logger: capturing });
    jobs.define({
      name,
      retryLimit: 1,
      retryDelaySeconds: 60,
      expireInSeconds: 60,
      // What a restart or Ctrl-C on the embedded server does to a query under way: 57P01, admin shutdown.
      run: () => own.raw('SELECT pg_terminate_backend(pg_backend_pid())'),
    });
    // The job's own pool loses its connection; the queue's records the failure.
    const own = createDb(database().url);
    try {
      await jobs.add(db(), name, {});
      await jobs.runDue(name);
    } finally {
      await own.destroy();
    }

    const failed = lines.filter((line) => String(line.msg).startsWith('job failed'));
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ level: 40, code: '57P01', msg: 'job failed: database unavailable' });
    expect(failed[0]!.message).toMatch(/terminating connection due to administrator command/);
    expect(JSON.stringify(lines)).not.toMatch(/"stack"|\\n\s+at /);
    expect((await jobsOf(db(), name)).map((job) => job.state)).toEqual(['retry']);
  });

  it('waits, when asked to run what is due, for the run a wake already started here', async () => {
    const name = 'test-gated';
    await db().raw(`SELECT ${JOBS_SCHEMA}.create_queue(?, ?::json)`, [name, JSON.stringify({ policy: 'standard' })]);
    const jobs = jobQueue({ db: db(), logger });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let running = false;
    jobs.define({
      name,
      retryLimit: 0,
      retryDelaySeconds: 1,
      expireInSeconds: 60,
      run: async () => {
        running = true;
        await gate;
      },
    });
    await jobs.add(db(), name, {});
    jobs.wake(name);
    await expect.poll(() => running).toBe(true);
    let done = false;
    const due = jobs.runDue(name).then(() => (done = true));
    await expect.poll(async () => (await jobsOf(db(), name))[0]?.state).toBe('active');
    expect(done).toBe(false);
    release();
    await due;
    expect((await jobsOf(db(), name))[0]?.state).toBe('completed');
  });

  it('gathers a burst of wakes into one fuller run: a lone wake runs at once, the next only a gap after it', async () => {
    const name = 'test-wake-gap';
    await db().raw(`SELECT ${JOBS_SCHEMA}.create_queue(?, ?::json)`, [name, JSON.stringify({ policy: 'standard' })]);
    const jobs = jobQueue({ db: db(), logger });
    const gap = 1000;
    const runs: { started: number; ns: number[] }[] = [];
    jobs.define<{ n: number }>({
      name,
      retryLimit: 0,
      retryDelaySeconds: 1,
      expireInSeconds: 60,
      batchSize: 20,
      wakeGapMs: gap,
      runBatch: async (batch) => {
        runs.push({ started: Date.now(), ns: batch.map(({ data }) => data.n) });
        return batch.map(() => undefined);
      },
    });
    const woken = Date.now();
    await jobs.add(db(), name, { n: 1 });
    jobs.wake(name);
    await jobs.runDue(name);
    expect(runs.map((r) => r.ns)).toEqual([[1]]);
    expect(runs[0]!.started - woken).toBeLessThan(gap); // at once, not a gap later
    // Five commits in a row, each waking the queue: one run takes them all, a gap after the first began.
    for (let n = 2; n <= 6; n++) {
      await jobs.add(db(), name, { n });
      jobs.wake(name);
    }
    await expect.poll(() => runs.flatMap((r) => r.ns).length, { timeout: 10_000 }).toBe(6);
    expect(runs.map((r) => r.ns.toSorted((a, b) => a - b))).toEqual([[1], [2, 3, 4, 5, 6]]);
    // A gap after the first run began (which was at or after `woken`; its batch reached the handler a fetch later).
    expect(runs[1]!.started - woken).toBeGreaterThanOrEqual(gap);
  });

  it('takes what it runs after commit one job at a time: one waiting behind another has not started, nor has its time', async () => {
    const name = 'test-one-at-a-time';
    await db().raw(`SELECT ${JOBS_SCHEMA}.create_queue(?, ?::json)`, [name, JSON.stringify({ policy: 'standard' })]);
    const jobs = jobQueue({ db: db(), logger });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const ran: number[] = [];
    jobs.define({
      name,
      retryLimit: 0,
      retryDelaySeconds: 1,
      expireInSeconds: 60,
      run: async (data: { n: number }) => {
        ran.push(data.n);
        if (data.n === 1) await gate;
      },
    });
    await jobs.add(db(), name, { n: 1 });
    await jobs.add(db(), name, { n: 2 });
    jobs.wake(name);
    await expect.poll(() => ran).toEqual([1]);
    // The second is still waiting in the queue (another replica may take it), its expiry not counting yet.
    const waiting = await db().withSchema(JOBS_SCHEMA).from('job').where({ name }).orderBy('createdOn');
    expect(waiting.map((job) => [job.state, job.startedOn])).toEqual([
      ['active', expect.any(Date)],
      ['created', null],
    ]);
    release();
    await jobs.runDue(name);
    expect(ran).toEqual([1, 2]);
    expect((await jobsOf(db(), name)).map((job) => job.state)).toEqual(['completed', 'completed']);
  });

  it('retries a failing scheduled run once, then lists it failed in the console, where an admin runs it again', async () => {
    const jobs: JobQueue = jobQueue({ db: db(), logger });
    let runs = 0;
    defineRecurringJobs(
      jobs,
      {
        prune: async () => ({}),
        expireTransfers: async () => 0,
        sendWorkshopReminders: async () => 0,
        expireCheckouts: async () => {
          runs++;
          throw new Error('the provider did not answer');
        },
      },
      logger,
    );
    const id = await jobs.add(db(), EXPIRE_CHECKOUTS, {});
    await jobs.runDue(EXPIRE_CHECKOUTS);
    await makeRetriesDue(db(), EXPIRE_CHECKOUTS);
    await jobs.runDue(EXPIRE_CHECKOUTS);
    expect(runs).toBe(2);

    const admin = await signedIn(db(), ['admin']);
    const app = testApp(db());
    const failed = await as(
      admin,
      request(app)
        .get('/api/admin/jobs')
        .query({ filter: JSON.stringify({ state: 'failed' }) }),
    );
    expect(failed.status).toBe(200);
    expect(failed.body).toEqual([
      expect.objectContaining({
        id,
        name: EXPIRE_CHECKOUTS,
        state: 'failed',
        retryCount: 1,
        output: expect.objectContaining({ message: 'the provider did not answer' }),
      }),
    ]);

    const support = await signedIn(db(), ['support']);
    expect((await as(support, request(app).post(`/api/admin/jobs/${id}/retry`))).status).toBe(403);
    // The console's process runs it again at once (its own sweep, which works).
    const retried = await as(admin, request(app).post(`/api/admin/jobs/${id}/retry`));
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ id, state: 'retry' });
    expect((await as(admin, request(app).post(`/api/admin/jobs/${id}/retry`))).status).toBe(409);
    await expect
      .poll(async () => (await jobsOf(db(), EXPIRE_CHECKOUTS)).find((job) => job.id === id)?.state)
      .toBe('completed');
    expect(runs).toBe(2);
    const audit = await db()('auditLogs').where({ resource: 'jobs', recordId: id });
    expect(audit).toEqual([expect.objectContaining({ action: 'retry', actorEmail: admin.user.email })]);
  });
});
