import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../api/src/config';
import { OutboxEmail } from '../support/models';
import { pruneExpired } from '../../api/src/identity/sign-in/prune';
import { hashSecret } from '../../api/src/identity/secrets';
import { createLogger } from '../../api/src/logger';
import { outbox as createOutbox } from '../../api/src/mail/outbox';
import { receiptEmail, signInEmail } from '../../api/src/mail/templates';
import { createUser } from '../../seeds/factories';
import { silentTransport, testApp, testConfig } from '../support/app';
import { as, signedIn } from '../support/auth';
import { manualClock } from '../support/clock';
import { useTestDatabase } from '../support/db';

const DAY = 86_400_000;

describe('pruning expired credentials', () => {
  const database = useTestDatabase();

  it('deletes what expired more than a day ago and keeps the rest', async () => {
    const db = database().db;
    const user = await createUser(db);
    const now = new Date();
    const old = new Date(now.getTime() - 2 * 86_400_000);
    const recent = new Date(now.getTime() - 3_600_000);
    for (const [label, expires] of [
      ['old', old],
      ['recent', recent],
    ] as const) {
      await db('verificationTokens').insert({ token: hashSecret(`vt-${label}`), identifier: user.email, expires });
      await db('oauthStates').insert({
        stateHash: hashSecret(`st-${label}`),
        provider: 'github',
        codeVerifier: 'v',
        expires,
      });
      await db('deviceVerifications').insert({
        deviceCode: hashSecret(`dc-${label}`),
        userCode: label === 'old' ? 'BBBBBBBB' : 'CCCCCCCC',
        expires,
      });
      await db('sessions').insert({ sessionToken: hashSecret(`s-${label}`), userId: user.id, expires });
    }
    const counts = await pruneExpired({ db, clock: { now: () => now }, config: testConfig() });
    expect(counts).toMatchObject({ verificationTokens: 1, oauthStates: 1, deviceVerifications: 1, sessions: 1 });
    for (const table of ['verificationTokens', 'oauthStates', 'deviceVerifications', 'sessions']) {
      expect(await db(table).count({ n: '*' }).first(), table).toEqual({ n: 1 });
    }
  });

  it('drops the bodies of emails done for longer than OUTBOX_RETENTION_DAYS (30), keeping their rows for the back office', async () => {
    const db = database().db;
    const config = testConfig();
    expect(config.OUTBOX_RETENTION_DAYS).toBe(30);
    const clock = manualClock();
    const mail = createOutbox({ db, clock, logger: createLogger('silent'), transport: silentTransport });
    const signIn = signInEmail(
      'kept@example.com',
      'http://localhost:3000/login/continue?email=kept%40example.com&token=RetainedTokenRetainedTokenRetainedToken1234',
      15,
    );
    const sentId = await mail.enqueue(db, signIn);
    const receiptId = await mail.enqueue(
      db,
      receiptEmail('kept@example.com', 'Course', '$10.00', 'http://localhost:3000/invoices/1'),
    );
    await mail.flush();
    const failedId = await mail.enqueue(db, { ...signIn, to: 'failed@example.com' });
    await OutboxEmail.query(db).findById(failedId).patch({ status: 'failed', attempts: 6, lastError: 'ECONNREFUSED' });
    const pendingId = await mail.enqueue(db, { ...signIn, to: 'later@example.com' });
    await OutboxEmail.query(db)
      .findById(pendingId)
      .patch({ nextAttemptAt: new Date(clock.now().getTime() + 365 * DAY) });
    const before = await OutboxEmail.query(db).findById(sentId);

    clock.advance(29 * DAY);
    expect((await pruneExpired({ db, clock, config })).emailBodies).toBe(0);
    expect((await OutboxEmail.query(db).findById(sentId))!.textBody).toContain('token=[redacted]');

    clock.advance(2 * DAY);
    expect((await pruneExpired({ db, clock, config })).emailBodies).toBe(3);
    for (const id of [sentId, receiptId, failedId]) {
      expect(await OutboxEmail.query(db).findById(id)).toMatchObject({ textBody: null, htmlBody: null, secret: null });
    }
    expect(await OutboxEmail.query(db).findById(sentId)).toMatchObject({
      toAddress: 'kept@example.com',
      kind: 'sign-in',
      subject: 'Your sign-in link',
      status: 'sent',
      sentAt: before!.sentAt,
      createdAt: before!.createdAt,
    });
    // An email not sent yet keeps what it needs to go out.
    const pending = await OutboxEmail.query(db).findById(pendingId);
    expect(pending).toMatchObject({ status: 'pending', secret: 'RetainedTokenRetainedTokenRetainedToken1234' });
    expect(pending!.textBody).toContain('token=[redacted]');
    expect((await pruneExpired({ db, clock, config })).emailBodies).toBe(0);

    // The console still lists them, and a failed email without its body is not sent again.
    const admin = await signedIn(db, ['admin']);
    const app = testApp(db);
    const shown = await as(admin, request(app).get(`/api/admin/outbox-emails/${sentId}`));
    expect(shown.body).toMatchObject({ toAddress: 'kept@example.com', status: 'sent', textBody: null, htmlBody: null });
    expect((await as(admin, request(app).post(`/api/admin/outbox-emails/${failedId}/retry`))).status).toBe(409);
  });

  it('reads the retention from OUTBOX_RETENTION_DAYS: whole days, at least one', async () => {
    expect(loadConfig({ OUTBOX_RETENTION_DAYS: '7' }).OUTBOX_RETENTION_DAYS).toBe(7);
    expect(() => loadConfig({ OUTBOX_RETENTION_DAYS: '0' })).toThrow(/OUTBOX_RETENTION_DAYS/);
  });
});
