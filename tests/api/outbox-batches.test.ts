import { describe, expect, it } from 'vitest';
import { OutboxEmail } from '../support/models';
import { createLogger } from '../../api/src/logger';
import { MAX_ATTEMPTS, outbox as createOutbox, SEND_EMAIL } from '../../api/src/mail/outbox';
import type { MailTransport, OutgoingEmail } from '../../api/src/mail/transport';
import { useTestDatabase } from '../support/db';
import { jobsOf, makeRetriesDue, passTime } from '../support/jobs';

const logger = createLogger('silent');

/**
 * The outbox delivers its emails in batches: one fetch of their jobs, one claim, one statement for every outcome and
 * one completion, whatever the batch's size; a failure still stays that email's own.
 */
describe('email delivery in batches', () => {
  const database = useTestDatabase();
  const db = () => database().db;

  /** A transport that records each email it was handed, and refuses those sent to an address it is told to. */
  function recordingTransport() {
    const sent: (OutgoingEmail & { id?: string })[] = [];
    const refused = new Set<string>();
    const transport: MailTransport = {
      name: 'smtp',
      timeoutSeconds: 5,
      async send(email) {
        await new Promise((resolve) => setImmediate(resolve));
        if (refused.has(email.to)) throw new Error(`550 mailbox unavailable: ${email.to}`);
        sent.push(email);
      },
    };
    const timesSent = (id: string) => sent.filter((email) => email.id === id).length;
    return { transport, sent, refused, timesSent };
  }

  /** The statements sent to PostgreSQL while `action` runs. */
  async function statementsOf(action: () => Promise<void>): Promise<string[]> {
    const sent: string[] = [];
    const record = (q: { sql: string }) => sent.push(q.sql.trim());
    db().on('query', record);
    try {
      await action();
    } finally {
      db().off('query', record);
    }
    return sent;
  }

  async function queue(mail: ReturnType<typeof createOutbox>, count: number, secretFor?: string): Promise<string[]> {
    return db().transaction(async (trx) => {
      const ids: string[] = [];
      for (let n = 0; n < count; n++) {
        const to = `batch-${n}@example.com`;
        const secret = to === secretFor ? 'one-time-token-123' : undefined;
        const text = secret ? `Sign in: https://example.com/login?token=${secret}` : 'Your receipt';
        ids.push(await mail.enqueue(trx, { kind: 'test', to, subject: 'Hello', text, secret }));
      }
      return ids;
    });
  }

  it('sends 30 emails with a handful of statements, and retries the one that failed alone, its secret kept', async () => {
    const { transport, refused, timesSent, sent } = recordingTransport();
    const mail = createOutbox({ db: db(), clock: { now: () => new Date() }, logger, transport });
    const failing = 'batch-7@example.com';
    const ids = await queue(mail, 30, failing);
    const failingId = ids[7]!;
    refused.add(failing);

    const statements = await statementsOf(() => mail.flush());
    // One batch: a fetch, a claim, one statement for every outcome, one completion and one for the failure; the fetch
    // took fewer than a batch, so none more looks for the rest. One email at a time, it was five per email (150).
    expect(statements.length).toBeLessThanOrEqual(5);
    expect(statements.filter((sql) => /^update "outbox_emails"/i.test(sql))).toHaveLength(1); // the claim
    expect(statements.filter((sql) => /^UPDATE outbox_emails AS e/.test(sql))).toHaveLength(1); // the outcomes

    const rows = await OutboxEmail.query(db()).whereIn('id', ids);
    const others = rows.filter((row) => row.id !== failingId);
    expect(others.every((row) => row.status === 'sent' && row.attempts === 1 && row.sentAt !== null)).toBe(true);
    expect(others.every((row) => row.transport === 'smtp' && row.lastError === null)).toBe(true);
    expect(ids.filter((id) => id !== failingId).every((id) => timesSent(id) === 1)).toBe(true);
    const failed = rows.find((row) => row.id === failingId)!;
    expect(failed).toMatchObject({ status: 'pending', attempts: 1, secret: 'one-time-token-123' });
    expect(failed.lastError).toMatch(/550 mailbox unavailable/);
    const jobs = (await jobsOf(db(), SEND_EMAIL)).filter((job) => ids.includes(job.data.emailId as string));
    expect(jobs.filter((job) => job.state === 'completed')).toHaveLength(29);
    const retry = jobs.find((job) => job.data.emailId === failingId)!;
    expect(retry).toMatchObject({ state: 'retry', output: { message: expect.stringMatching(/550/) } });

    // The retry sends that one email, with its working link, and drops the secret as it marks it sent.
    refused.clear();
    await makeRetriesDue(db(), SEND_EMAIL);
    await mail.flush();
    expect(timesSent(failingId)).toBe(1);
    expect(sent.find((email) => email.id === failingId)!.text).toContain('token=one-time-token-123');
    expect(await OutboxEmail.query(db()).findById(failingId)).toMatchObject({
      status: 'sent',
      attempts: 2,
      secret: null,
      lastError: null,
    });
    expect(ids.every((id) => timesSent(id) === 1)).toBe(true);
  });

  it('sends 60 emails in two fetches (50 and 10), never handing the relay more than 20 at once', async () => {
    const { transport, timesSent } = recordingTransport();
    let sending = 0;
    let most = 0;
    const counted: MailTransport = {
      ...transport,
      async send(email) {
        most = Math.max(most, ++sending);
        try {
          await transport.send(email);
        } finally {
          sending--;
        }
      },
    };
    const mail = createOutbox({ db: db(), clock: { now: () => new Date() }, logger, transport: counted });
    const ids = await queue(mail, 60);

    const statements = await statementsOf(() => mail.flush());
    const fetches = statements.filter((sql) => /FROM pgboss\.job/.test(sql) && /FOR UPDATE SKIP LOCKED/.test(sql));
    expect(fetches).toHaveLength(2);
    expect(statements.filter((sql) => /^update "outbox_emails"/i.test(sql))).toHaveLength(2); // the claims
    expect(ids.every((id) => timesSent(id) === 1)).toBe(true);
    expect(most).toBe(20);
    // Each claim held its emails for every wave of its sends (a sent email keeps its last hold): two timeouts of
    // 5 s for each wave of twenty, three for the fifty, one for the ten.
    const rows = await OutboxEmail.query(db())
      .whereIn('id', ids)
      .select('status', db().raw(`round(extract(epoch FROM next_attempt_at - now())) AS held`));
    const held = rows.map((row) => Number((row as unknown as { held: string }).held));
    expect(rows.every((row) => row.status === 'sent')).toBe(true);
    expect(held.filter((seconds) => seconds > 20 && seconds <= 30)).toHaveLength(50);
    expect(held.filter((seconds) => seconds > 0 && seconds <= 10)).toHaveLength(10);
  });

  it('marks an email failed on its last attempt while the rest of its batch is sent', async () => {
    const { transport, refused, timesSent } = recordingTransport();
    const mail = createOutbox({ db: db(), clock: { now: () => new Date() }, logger, transport });
    const ids = await queue(mail, 3);
    refused.add('batch-1@example.com');
    await mail.flush();
    for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) {
      await makeRetriesDue(db(), SEND_EMAIL);
      await mail.flush();
    }
    expect(await OutboxEmail.query(db()).findById(ids[1]!)).toMatchObject({
      status: 'failed',
      attempts: MAX_ATTEMPTS,
      lastError: expect.stringMatching(/550/),
    });
    expect(timesSent(ids[0]!)).toBe(1);
    expect(timesSent(ids[2]!)).toBe(1);
    const states = (await jobsOf(db(), SEND_EMAIL)).map((job) => [job.data.emailId, job.state]);
    expect(states).toEqual(
      expect.arrayContaining([
        [ids[0], 'completed'],
        [ids[1], 'failed'],
        [ids[2], 'completed'],
      ]),
    );
  });

  it('leaves an email held by another run to wait for the hold, sending the rest of the batch', async () => {
    const { transport, timesSent } = recordingTransport();
    const mail = createOutbox({ db: db(), clock: { now: () => new Date() }, logger, transport });
    const ids = await queue(mail, 5);
    const heldId = ids[2]!;
    // Another run claimed it 10 s ago (and may have died with its process): its hold lasts 10 s more.
    await OutboxEmail.query(db())
      .findById(heldId)
      .patch({ attempts: 1, nextAttemptAt: db().raw(`now() + interval '10 seconds'`) as unknown as Date });

    await mail.flush();
    expect(ids.filter((id) => id !== heldId).every((id) => timesSent(id) === 1)).toBe(true);
    const held = (await OutboxEmail.query(db()).findById(heldId))!;
    expect(held).toMatchObject({ status: 'pending', attempts: 1 });
    expect(timesSent(heldId)).toBe(0);
    // Its job did not end as if it were sent: a new one waits for the hold's end.
    const heldJobs = (await jobsOf(db(), SEND_EMAIL)).filter((job) => job.data.emailId === heldId);
    expect(heldJobs.map((job) => job.state)).toEqual(['completed', 'created']);
    expect(heldJobs[1]!.startAfter.getTime()).toBeGreaterThanOrEqual(held.nextAttemptAt.getTime());

    await passTime(db(), 11);
    await mail.flush();
    expect(await OutboxEmail.query(db()).findById(heldId)).toMatchObject({ status: 'sent', attempts: 2 });
    expect(ids.every((id) => timesSent(id) === 1)).toBe(true);
    expect(await mail.requeueStranded()).toEqual({ requeued: 0, failed: 0 });
  });
});
