import { Writable } from 'node:stream';
import { pino } from 'pino';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { OutboxEmail } from '../support/models';
import { signInLink } from '../../api/src/identity/sign-in/email-sign-in';
import { hashSecret, newSecret } from '../../api/src/identity/secrets';
import { createLogger } from '../../api/src/logger';
import { jobQueue } from '../../api/src/jobs/queue';
import { queueUnsentEmails } from '../../migrations/20261126000000_add_job_queue';
import { outbox as createOutbox, SEND_EMAIL } from '../../api/src/mail/outbox';
import { signInEmail } from '../../api/src/mail/templates';
import { createTransport, type MailTransport } from '../../api/src/mail/transport';
import {
  down as beforeThisMigration,
  up as thisMigration,
} from '../../migrations/20261124000100_remove_stored_secrets';
import { createUser } from '../../seeds/factories';
import { deliveredEmails, silentTransport, testApp } from '../support/app';
import { as, signedIn } from '../support/auth';
import { manualClock } from '../support/clock';
import { useTestDatabase } from '../support/db';
import { makeRetriesDue, passTime } from '../support/jobs';
import { freePort } from '../support/processes';
import { tablesHolding } from '../support/secrets';
import { decodedMessage, useSmtp } from '../support/smtp-stand-in';

const from = 'Courses <no-reply@example.com>';
const logger = createLogger('silent');
const TOKEN_IN_LINK = /\/login\/continue\?email=[^&\s]+&token=([\w-]{43})/;

/** The token of the sign-in link in a message as it went out. */
function tokenIn(text: string): string {
  const match = TOKEN_IN_LINK.exec(text);
  if (!match) throw new Error(`no sign-in link in: ${text}`);
  return match[1]!;
}

describe('no live sign-in token readable in the database', () => {
  const database = useTestDatabase();
  const db = () => database().db;
  const smtp = useSmtp();

  const emailTo = (to: string) => OutboxEmail.query(db()).findOne({ toAddress: to }).throwIfNotFound();
  const consume = (app: ReturnType<typeof testApp>, email: string, token: string) =>
    request(app).post('/api/store/auth/email/consume').send({ email, token });

  it('an email sent over SMTP leaves its token in no table, and its link still signs in', async () => {
    const app = testApp(db(), { mailTransport: createTransport({ SMTP_URL: smtp().url, MAIL_FROM: from }, logger) });
    expect((await request(app).post('/api/store/auth/email').send({ email: 'smtp-rest@example.com' })).status).toBe(
      202,
    );
    await expect.poll(async () => (await emailTo('smtp-rest@example.com')).status).toBe('sent');
    const received = smtp().messages.find((m) => m.to.includes('smtp-rest@example.com'))!;
    const token = tokenIn(decodedMessage(received.raw));

    expect(await tablesHolding(db(), token)).toEqual([]);
    const row = await emailTo('smtp-rest@example.com');
    expect(row.secret).toBeNull();
    expect(row.textBody).toContain('/login/continue?email=smtp-rest%40example.com&token=[redacted]');
    expect(row.htmlBody).toContain('token=[redacted]');

    const signedInNow = await consume(app, 'smtp-rest@example.com', token);
    expect(signedInNow.status).toBe(200);
    expect(signedInNow.body.user.email).toBe('smtp-rest@example.com');
  });

  it('an email printed to the log (no SMTP_URL) leaves its token in no table either', async () => {
    const lines: string[] = [];
    const capture = pino(
      { level: 'info' },
      new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }),
    );
    const app = testApp(db(), { mailTransport: createTransport({ MAIL_FROM: from }, capture) });
    await request(app).post('/api/store/auth/email').send({ email: 'log-rest@example.com' });
    await expect.poll(async () => (await emailTo('log-rest@example.com')).status).toBe('sent');
    const logged = lines.map((l) => JSON.parse(l)).find((l) => l.email?.to === 'log-rest@example.com');
    const token = tokenIn(logged.email.links[0]);

    expect(await tablesHolding(db(), token)).toEqual([]);
    expect((await emailTo('log-rest@example.com')).transport).toBe('log');
    expect((await consume(app, 'log-rest@example.com', token)).status).toBe(200);
  });

  it('an email whose sending died with the process keeps its token beside the body, and goes out working after the restart', async () => {
    const clock = manualClock();
    // The process stops while the email is with the transport: the send never returns.
    const dying: MailTransport = { name: 'smtp', timeoutSeconds: 20, send: () => new Promise(() => {}) };
    await request(testApp(db(), { clock, mailTransport: dying }))
      .post('/api/store/auth/email')
      .send({ email: 'restart@example.com' });
    await expect.poll(async () => (await emailTo('restart@example.com')).attempts).toBe(1);

    const waiting = await emailTo('restart@example.com');
    expect(waiting.status).toBe('pending');
    expect(waiting.secret).toMatch(/^[\w-]{43}$/);
    expect(waiting.textBody).toContain('token=[redacted]');
    expect(waiting.textBody).not.toContain(waiting.secret);
    expect(waiting.htmlBody).not.toContain(waiting.secret);
    expect(await tablesHolding(db(), waiting.secret!)).toEqual(['outbox_emails']);

    // The next process: once the dead run's time is up (a fetch of fifty's three waves of sends, two 20 s timeouts
    // each), the queue's maintenance gives its job back, and it goes out.
    await passTime(db(), 3 * 2 * 20 + 1);
    const jobs = jobQueue({ db: db(), logger });
    const restarted = createOutbox({ db: db(), clock, logger, transport: silentTransport, jobs });
    await jobs.boss.expire();
    await passTime(db(), 60);
    await restarted.flush();
    const token = tokenIn(deliveredEmails.get(waiting.id)!.text);
    expect(token).toBe(waiting.secret);
    expect(deliveredEmails.get(waiting.id)!.html).toContain(`token=${token}`);
    expect(await emailTo('restart@example.com')).toMatchObject({ status: 'sent', secret: null, attempts: 2 });
    expect(await tablesHolding(db(), token)).toEqual([]);
    expect((await consume(testApp(db(), { clock }), 'restart@example.com', token)).status).toBe(200);
  });

  it('a failed send is retried with a working link, and only the sent email forgets the token', async () => {
    const clock = manualClock();
    const refused = createTransport({ SMTP_URL: `smtp://127.0.0.1:${await freePort()}`, MAIL_FROM: from }, logger);
    await request(testApp(db(), { clock, mailTransport: refused }))
      .post('/api/store/auth/email')
      .send({ email: 'retry-rest@example.com' });
    await expect.poll(async () => (await emailTo('retry-rest@example.com')).lastError).toMatch(/ECONNREFUSED/);
    const failedOnce = await emailTo('retry-rest@example.com');
    expect(failedOnce).toMatchObject({ status: 'pending', attempts: 1 });
    expect(failedOnce.secret).toMatch(/^[\w-]{43}$/);

    await makeRetriesDue(db(), SEND_EMAIL);
    const working = createOutbox({
      db: db(),
      clock,
      logger,
      transport: createTransport({ SMTP_URL: smtp().url, MAIL_FROM: from }, logger),
    });
    await working.flush();
    const received = smtp().messages.find((m) => m.to.includes('retry-rest@example.com'))!;
    const token = tokenIn(decodedMessage(received.raw));
    expect(token).toBe(failedOnce.secret);
    expect(await emailTo('retry-rest@example.com')).toMatchObject({ status: 'sent', secret: null, lastError: null });
    expect(await tablesHolding(db(), token)).toEqual([]);
    expect((await consume(testApp(db(), { clock }), 'retry-rest@example.com', token)).status).toBe(200);
  });

  it('the console shows sign-in emails with the link redacted, sent or not, and in the retry answer', async () => {
    const refused = createTransport({ SMTP_URL: `smtp://127.0.0.1:${await freePort()}`, MAIL_FROM: from }, logger);
    await request(testApp(db(), { mailTransport: refused }))
      .post('/api/store/auth/email')
      .send({ email: 'console-unsent@example.com' });
    await expect.poll(async () => (await emailTo('console-unsent@example.com')).lastError).toMatch(/ECONNREFUSED/);
    await request(testApp(db())).post('/api/store/auth/email').send({ email: 'console-sent@example.com' });
    await expect.poll(async () => (await emailTo('console-sent@example.com')).status).toBe('sent');
    const unsent = await emailTo('console-unsent@example.com');
    const sent = await emailTo('console-sent@example.com');
    const tokens = [unsent.secret!, tokenIn(deliveredEmails.get(sent.id)!.text)];

    const admin = await signedIn(db(), ['admin']);
    const app = testApp(db());
    const listed = await as(
      admin,
      request(app)
        .get('/api/admin/outbox-emails')
        .query({ filter: JSON.stringify({ kind: 'sign-in' }) }),
    );
    const shown = [
      ...listed.body.filter((e: { toAddress: string }) => e.toAddress.startsWith('console-')),
      (await as(admin, request(app).get(`/api/admin/outbox-emails/${unsent.id}`))).body,
      (await as(admin, request(app).get(`/api/admin/outbox-emails/${sent.id}`))).body,
    ];
    // The retry answer is the stored row: the token must not ride along on it either.
    await OutboxEmail.query(db()).findById(unsent.id).patch({ status: 'failed' });
    const retried = await as(admin, request(app).post(`/api/admin/outbox-emails/${unsent.id}/retry`));
    expect(retried.status).toBe(200);
    shown.push(retried.body);

    expect(shown).toHaveLength(5);
    for (const email of shown) {
      expect(email).not.toHaveProperty('secret');
      expect(email.textBody).toMatch(/\/login\/continue\?email=console-(un)?sent%40example\.com&token=\[redacted\]/);
      expect(email.htmlBody).toContain('token=[redacted]');
      for (const token of tokens) expect(JSON.stringify(email)).not.toContain(token);
    }
  });

  it('the migration takes the tokens out of rows stored before it; an unsent email still goes out working', async () => {
    await beforeThisMigration(db());
    const user = await createUser(db(), { email: 'before@example.com' });
    await db()('accounts').insert({
      userId: user.id,
      type: 'oauth',
      provider: 'github',
      providerAccountId: '777',
      accessToken: 'gho_storedBefore',
      refreshToken: 'ghr_storedBefore',
      expiresAt: 1_900_000_000,
    });
    const sentToken = newSecret();
    const unsentToken = newSecret();
    await db()('verificationTokens').insert({
      token: hashSecret(unsentToken),
      identifier: 'unsent-before@example.com',
      expires: new Date(Date.now() + 15 * 60_000),
    });
    const old = (to: string, token: string, status: string) => {
      const email = signInEmail(to, signInLink('http://localhost:3000', to, token), 15);
      return {
        toAddress: to,
        subject: email.subject,
        textBody: email.text,
        htmlBody: email.html,
        kind: email.kind,
        status,
      };
    };
    const [, unsentRow] = await db()('outboxEmails')
      .insert([
        old('sent-before@example.com', sentToken, 'sent'),
        old('unsent-before@example.com', unsentToken, 'pending'),
      ])
      .returning('id');
    expect(await tablesHolding(db(), sentToken)).toEqual(['outbox_emails']);
    await thisMigration(db());

    for (const gone of [sentToken, 'gho_storedBefore', 'ghr_storedBefore'])
      expect(await tablesHolding(db(), gone), gone).toEqual([]);
    expect(await db()('accounts').where({ providerAccountId: '777' }).first()).toMatchObject({
      accessToken: null,
      refreshToken: null,
      expiresAt: null,
      provider: 'github',
    });
    const waiting = await emailTo('unsent-before@example.com');
    expect(waiting.secret).toBe(unsentToken);
    expect(waiting.textBody).toContain('token=[redacted]');
    expect(waiting.htmlBody).toContain('token=[redacted]');

    // The job queue's migration (later) gives the unsent email its delivery job.
    await queueUnsentEmails(db());
    await createOutbox({ db: db(), clock: { now: () => new Date() }, logger, transport: silentTransport }).flush();
    expect(tokenIn(deliveredEmails.get(unsentRow.id)!.text)).toBe(unsentToken);
    expect(await tablesHolding(db(), unsentToken)).toEqual([]);
    expect((await consume(testApp(db()), 'unsent-before@example.com', unsentToken)).status).toBe(200);
    // And the database refuses provider tokens from now on.
    await expect(
      db()('accounts').where({ providerAccountId: '777' }).update({ accessToken: 'gho_again' }),
    ).rejects.toThrow(/accounts_keep_no_tokens/);
  });
});
