import { Writable } from 'node:stream';
import { pino } from 'pino';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { OutboxEmail } from '../support/models';
import { JOBS_SCHEMA } from '../../api/src/jobs/models';
import { jobQueue } from '../../api/src/jobs/queue';
import { MAX_ATTEMPTS, outbox as createOutbox, REQUEUE_EMAILS, SEND_EMAIL } from '../../api/src/mail/outbox';
import { createTransport, type MailTransport } from '../../api/src/mail/transport';
import { createLogger } from '../../api/src/logger';
import { testApp } from '../support/app';
import { as, signedIn } from '../support/auth';
import { manualClock } from '../support/clock';
import { useTestDatabase } from '../support/db';
import { lastEmailTo, tokenFrom } from '../support/outbox';
import { jobsOf, makeRetriesDue, passTime } from '../support/jobs';
import { freePort } from '../support/processes';
import { decodedMessage, useSmtp } from '../support/smtp-stand-in';

const from = 'Courses <no-reply@example.com>';
const logger = createLogger('silent');

describe('email outbox', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const smtp = useSmtp();
  /** A process's outbox sending to the SMTP stand-in, with its own job queue. */
  const outboxOverSmtp = () => {
    const jobs = jobQueue({ db: db(), logger });
    const transport = createTransport({ SMTP_URL: smtp().url, MAIL_FROM: from }, logger);
    return { jobs, mail: createOutbox({ db: db(), clock: manualClock(), logger, jobs, transport }) };
  };

  it('delivers over SMTP after commit and records it', async () => {
    const app = testApp(db(), { mailTransport: createTransport({ SMTP_URL: smtp().url, MAIL_FROM: from }, logger) });
    await request(app).post('/api/store/auth/email').send({ email: 'smtp@example.com' });
    // The request answered after commit; delivery runs right after it, off the request.
    await expect
      .poll(async () => (await OutboxEmail.query(db()).findOne({ toAddress: 'smtp@example.com' }))?.status)
      .toBe('sent');
    const received = smtp().messages.find((m) => m.to.includes('smtp@example.com'));
    expect(received?.raw).toContain('Subject: Your sign-in link');
    const body = decodedMessage(received!.raw);
    expect(body).toMatch(/login\/continue\?email=smtp%40example\.com&token=[\w-]{43}/);
    const row = await OutboxEmail.query(db()).findOne({ toAddress: 'smtp@example.com' });
    expect(row).toMatchObject({ status: 'sent', transport: 'smtp', attempts: 1, lastError: null });
  });

  it('sends nothing for a transaction that rolls back', async () => {
    const mail = createOutbox({
      db: db(),
      clock: manualClock(),
      logger,
      transport: createTransport({ SMTP_URL: smtp().url, MAIL_FROM: from }, logger),
    });
    await db()
      .transaction(async (trx) => {
        await mail.enqueue(trx, { kind: 'test', to: 'rollback@example.com', subject: 'never', text: 'never' });
        throw new Error('the action failed');
      })
      .catch(() => undefined);
    await mail.flush();
    expect(await OutboxEmail.query(db()).where('toAddress', 'rollback@example.com').resultSize()).toBe(0);
    expect(smtp().messages.some((m) => m.to.includes('rollback@example.com'))).toBe(false);
  });

  it('retries failures with backoff, then marks them failed; the console can retry', async () => {
    const clock = manualClock();
    const deadPort = await freePort();
    const mail = createOutbox({
      db: db(),
      clock,
      logger,
      transport: createTransport({ SMTP_URL: `smtp://127.0.0.1:${deadPort}`, MAIL_FROM: from }, logger),
    });
    const id = await mail.enqueue(db(), { kind: 'test', to: 'retry@example.com', subject: 'Hello', text: 'Hello' });
    const jobOf = async () => (await jobsOf(db(), SEND_EMAIL)).find((job) => job.data.emailId === id)!;

    await mail.flush();
    let row = await OutboxEmail.query(db()).findById(id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row!.lastError).toMatch(/ECONNREFUSED/);
    // The queue waits 30 s, then doubles (with up to as much again of jitter) before each retry.
    const waits: number[] = [];
    for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) {
      const job = await jobOf();
      expect(job.state).toBe('retry');
      waits.push(job.startAfter.getTime() - Date.now());
      await mail.flush();
      expect((await OutboxEmail.query(db()).findById(id))!.attempts).toBe(attempt - 1); // not due yet
      await makeRetriesDue(db(), SEND_EMAIL);
      await mail.flush();
    }
    waits.forEach((wait, n) => {
      expect(wait).toBeGreaterThan(30_000 * 2 ** n - 5_000);
      expect(wait).toBeLessThanOrEqual(2 * 30_000 * 2 ** n);
    });
    row = await OutboxEmail.query(db()).findById(id);
    expect(row).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });
    expect(await jobOf()).toMatchObject({
      state: 'failed',
      output: { message: expect.stringMatching(/ECONNREFUSED/) },
    });

    const admin = await signedIn(db(), ['admin']);
    const app = testApp(db());
    const failedList = await as(
      admin,
      request(app)
        .get('/api/admin/outbox-emails')
        .query({ filter: JSON.stringify({ status: 'failed' }) }),
    );
    expect(failedList.body.map((e: { id: string }) => e.id)).toContain(id);
    expect(failedList.headers['content-range']).toMatch(/^outbox-emails 0-\d+\/\d+$/);
    const retried = await as(admin, request(app).post(`/api/admin/outbox-emails/${id}/retry`));
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ status: 'pending', attempts: 0 });
    // A new job for it: a second failed job, not the first one brought back.
    expect((await jobsOf(db(), SEND_EMAIL)).filter((job) => job.data.emailId === id)).toHaveLength(2);
    const again = await as(admin, request(app).post(`/api/admin/outbox-emails/${id}/retry`));
    expect(again.status).toBe(409);
    // Support answers "I never got the email": the outbox is theirs to read; finance's work is elsewhere.
    const support = await signedIn(db(), ['support']);
    expect((await as(support, request(app).get('/api/admin/outbox-emails'))).status).toBe(200);
    const finance = await signedIn(db(), ['finance']);
    expect((await as(finance, request(app).get('/api/admin/outbox-emails'))).status).toBe(403);
  });

  it('sends an email exactly once after the process that claimed it died, when its job comes back before the claim ran out', async () => {
    const to = 'died-mid-send@example.com';
    const timeoutSeconds = 20;
    // The process that dies: it claims the email, and its send never returns.
    const dying: MailTransport = { name: 'smtp', timeoutSeconds, send: () => new Promise(() => {}) };
    const gone = createOutbox({ db: db(), clock: manualClock(), logger, transport: dying });
    const id = await gone.enqueue(db(), { kind: 'test', to, subject: 'Once', text: 'Exactly once' });
    gone.flushInBackground();
    await expect.poll(async () => (await OutboxEmail.query(db()).findById(id))!.attempts).toBe(1);
    const jobOf = async () => (await jobsOf(db(), SEND_EMAIL)).filter((job) => job.data.emailId === id);
    const [dead] = await jobOf();
    expect(dead!.state).toBe('active');
    // Its run claimed the email 91 s after it started, and 30 s have passed since: the queue has given the run up
    // (120 s from its start: a fetch of fifty sends in three waves of twenty, each within two timeouts), while the
    // claim of this one email holds it 10 s more (40 s from itself).
    await db()
      .withSchema(JOBS_SCHEMA)
      .from('job')
      .where({ id: dead!.id })
      .update({ startedOn: db().raw(`started_on - interval '91 seconds'`) });
    await passTime(db(), 2 * timeoutSeconds - 10);

    // Another replica: the queue's maintenance gives the dead run's job back, and it runs while the email is held.
    const { jobs, mail: alive } = outboxOverSmtp();
    await jobs.boss.expire();
    expect((await jobOf())[0]!.state).toBe('retry');
    await makeRetriesDue(db(), SEND_EMAIL);
    await alive.flush();
    const held = (await OutboxEmail.query(db()).findById(id))!;
    expect(held).toMatchObject({ status: 'pending', attempts: 1 });
    expect(smtp().messages.filter((m) => m.to.includes(to))).toHaveLength(0);
    // That run did not end as if the email were sent: a job waits for the hold's end.
    const waiting = (await jobOf()).filter((job) => job.state === 'created');
    expect(waiting).toHaveLength(1);
    expect(waiting[0]!.startAfter.getTime()).toBeGreaterThanOrEqual(held.nextAttemptAt.getTime());

    await passTime(db(), 11);
    await alive.flush();
    expect(await OutboxEmail.query(db()).findById(id)).toMatchObject({ status: 'sent', attempts: 2 });
    await alive.flush();
    expect(await alive.requeueStranded()).toEqual({ requeued: 0, failed: 0 });
    expect(smtp().messages.filter((m) => m.to.includes(to))).toHaveLength(1);
    expect((await jobOf()).map((job) => job.state)).toEqual(['completed', 'completed']);
  });

  it('gives an unsent email left with no job a new one once its hold is over, every minute, and fails one that had every attempt', async () => {
    const { jobs, mail } = outboxOverSmtp();
    const lost = await mail.enqueue(db(), { kind: 'test', to: 'lost-job@example.com', subject: 'Hi', text: 'Hi' });
    const spent = await mail.enqueue(db(), { kind: 'test', to: 'spent@example.com', subject: 'Hi', text: 'Hi' });
    const jobRow = (emailId: string) =>
      db().withSchema(JOBS_SCHEMA).from('job').where({ name: SEND_EMAIL }).whereRaw(`data->>'emailId' = ?`, [emailId]);
    // One's job ended while a run held it for 30 s more; the other's last run died with its process.
    await jobRow(lost).update({ state: 'completed', completedOn: db().fn.now() });
    await OutboxEmail.query(db())
      .findById(lost)
      .patch({ attempts: 1, nextAttemptAt: db().raw(`now() + interval '30 seconds'`) as unknown as Date });
    await jobRow(spent).update({ state: 'failed', completedOn: db().fn.now() });
    await OutboxEmail.query(db()).findById(spent).patch({ attempts: MAX_ATTEMPTS });

    expect(await mail.requeueStranded()).toEqual({ requeued: 0, failed: 1 });
    expect(await OutboxEmail.query(db()).findById(spent)).toMatchObject({
      status: 'failed',
      lastError: expect.stringMatching(/process sending it stopped/),
    });
    await passTime(db(), 31);
    expect(await mail.requeueStranded()).toEqual({ requeued: 1, failed: 0 });
    expect(await mail.requeueStranded()).toEqual({ requeued: 0, failed: 0 });
    await mail.flush();
    expect(await OutboxEmail.query(db()).findById(lost)).toMatchObject({ status: 'sent', attempts: 2 });
    expect(smtp().messages.filter((m) => m.to.includes('lost-job@example.com'))).toHaveLength(1);
    expect(smtp().messages.filter((m) => m.to.includes('spent@example.com'))).toHaveLength(0);

    // The sweep runs every minute, once across the replicas.
    await jobs.start();
    try {
      const schedules = await db().withSchema(JOBS_SCHEMA).from('schedule').where({ name: REQUEUE_EMAILS });
      expect(schedules.map((s) => s.cron)).toEqual(['* * * * *']);
    } finally {
      await jobs.stop();
    }
  });

  it('without SMTP, prints each email with its links to the log', async () => {
    const lines: string[] = [];
    const capture = pino(
      { level: 'info' },
      new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }),
    );
    const mail = createOutbox({
      db: db(),
      clock: manualClock(),
      logger: capture,
      transport: createTransport({ MAIL_FROM: from }, capture),
    });
    await mail.enqueue(db(), {
      kind: 'test',
      to: 'log@example.com',
      subject: 'Link inside',
      text: 'Open https://example.com/a?b=1 now',
    });
    await mail.flush();
    const logged = lines.map((l) => JSON.parse(l)).find((l) => l.email?.to === 'log@example.com');
    expect(logged.email.links).toEqual(['https://example.com/a?b=1']);

    // In production the log is no private channel: links keep their shape, not their token.
    const production = createTransport({ MAIL_FROM: from, NODE_ENV: 'production' }, capture);
    await production.send({
      to: 'prod@example.com',
      subject: 'Sign in',
      text: 'https://site.example/login/continue?email=a&token=SECRET123',
    });
    const prodLine = lines.map((l) => JSON.parse(l)).find((l) => l.email?.to === 'prod@example.com');
    expect(prodLine.email.links).toEqual(['https://site.example/login/continue?email=a&token=[hidden]']);
    expect((await OutboxEmail.query(db()).findOne({ toAddress: 'log@example.com' }))?.transport).toBe('log');
  });
});

describe('the console view of the outbox', () => {
  const database = useTestDatabase();

  it('shows that a sign-in link was sent, never the live token', async () => {
    const db = database().db;
    const app = testApp(db);
    await request(app).post('/api/store/auth/email').send({ email: 'private@example.com' });
    const stored = await lastEmailTo(db, 'private@example.com');
    const { token } = tokenFrom(stored.link);
    const admin = await signedIn(db, ['admin']);
    const listed = await as(
      admin,
      request(app)
        .get('/api/admin/outbox-emails')
        .query({ filter: JSON.stringify({ q: 'private@' }) }),
    );
    const one = await as(admin, request(app).get(`/api/admin/outbox-emails/${stored.id}`));
    for (const body of [listed.body[0], one.body]) {
      expect(JSON.stringify(body)).not.toContain(token);
      expect(body).not.toHaveProperty('secret');
      expect(body.textBody).toContain('/login/continue?email=private%40example.com&token=[redacted]');
      expect(body.htmlBody).toContain('token=[redacted]');
    }
  });
});
