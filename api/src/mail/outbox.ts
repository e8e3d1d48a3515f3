import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Clock } from '../clock';
import type { Db } from '../db/connection';
import type { Logger } from '../logger';
import { recordAudit, type Actor } from '../audit/record';
import { AppError } from '../shared/errors';
import type { OutboxEmail } from './models';
import { JOBS_SCHEMA } from '../jobs/models';
import { jobQueue, type JobQueue, type RunningJob } from '../jobs/queue';
import type { MailTransport, OutgoingEmail } from './transport';

/** Attempts an email gets: the first and five retries, EMAIL_RETRY_SECONDS apart and doubling (with jitter). */
export const MAX_ATTEMPTS = 6;
export const SEND_EMAIL = 'send-email';
/** The minute's sweep that gives an unsent email with no job left a new one. */
export const REQUEUE_EMAILS = 'requeue-emails';
/** Stranded emails one sweep queues again at most (the next minute's takes the rest). */
const STRANDED_PER_SWEEP = 500;

/** What an email's stored bodies say where its secret goes; the sender puts the secret back as it sends. */
export const SECRET_PLACEHOLDER = '[redacted]';

export interface NewEmail extends OutgoingEmail {
  kind: string;
  /**
   * A bearer secret the email carries (a sign-in link's token). The bodies are stored with `[redacted]` in its place,
   * the secret beside them until the email is sent: the statement that marks it sent drops it.
   */
  secret?: string;
  /** The console request that made it (one email per key: a double click sends one). */
  resendKey?: string;
}

/** Why an email cannot be resent as a copy (see `resend`), or null. */
export function whyNotResendable(
  email: Pick<OutboxEmail, 'textBody' | 'htmlBody' | 'secret'> & { kind?: string },
): string | null {
  if (email.textBody === null) return 'Its body was dropped after the retention period, so it cannot be sent again.';
  if (email.secret || email.textBody.includes(SECRET_PLACEHOLDER) || email.htmlBody?.includes(SECRET_PLACEHOLDER))
    return email.kind === 'receipt'
      ? 'Its sign-in link works once, so it is never sent twice: send the receipt again from its purchase’s page (Send receipt again), with a new link.'
      : 'It carried a one-time sign-in link, which is never sent twice: the person can ask for a new sign-in link.';
  return null;
}

/**
 * The outbox: each email is a row written in the caller's transaction together with one `send-email` job (so a
 * rolled-back action sends nothing), delivered right after commit by the process that wrote it, else by any
 * replica's worker, retried with backoff by the job queue and marked failed at last. One email, one job: a replica
 * that dies mid-send holds up that email only, until its hold ends and another replica takes it (a job waits for
 * that end; the minute's sweep gives any email left unsent with no job a new one).
 */
export function outbox({
  db,
  clock,
  logger,
  transport,
  jobs = jobQueue({ db, logger }),
  retrySeconds = 30,
}: {
  db: Db;
  clock: Clock;
  logger: Logger;
  transport: MailTransport;
  /** The app's queue; an outbox on its own (a tool, a test) gets one of its own. */
  jobs?: JobQueue;
  /** EMAIL_RETRY_SECONDS. */
  retrySeconds?: number;
}) {
  /**
   * Takes one email for this run: not sent yet, its body not dropped, and not held by another run (a console retry
   * while its first job still runs). The hold lasts as long as the run may; a failure releases it.
   */
  async function claim(id: string): Promise<OutboxEmail | undefined> {
    const [row]: (OutboxEmail | undefined)[] = await db('outboxEmails')
      .where({ id })
      .whereNot('status', 'sent')
      .whereNotNull('textBody')
      .where('nextAttemptAt', '<=', db.fn.now())
      .update({
        attempts: db.raw('attempts + 1'),
        nextAttemptAt: db.raw(`now() + make_interval(secs => ?)`, [transport.timeoutSeconds * 2]),
      })
      .returning('*');
    return row;
  }

  /**
   * For a run that found its email held by another run, which may have died with its process (pg-boss counts a
   * run's time from its start, the hold from the later claim, so a dead run's retry can come before its hold ends):
   * it must not end as if the email were sent. A job waits for the hold's end, when whichever run claims the email
   * first sends it, and a later one finds it sent. Nothing to do once it is sent or its body was dropped.
   */
  async function retryOnRelease(id: string): Promise<void> {
    const unsent = (await db('outboxEmails')
      .where({ id })
      .whereNot('status', 'sent')
      .whereNotNull('textBody')
      // A second past the hold: the job's start and the hold are compared on different statements' clocks.
      .first(db.raw(`greatest(next_attempt_at, now()) + interval '1 second' as released_at`))) as
      { releasedAt: Date } | undefined;
    if (!unsent) return;
    await jobs.add(db, SEND_EMAIL, { emailId: id }, { startAfter: unsent.releasedAt });
    logger.debug({ emailId: id, releasedAt: unsent.releasedAt }, 'email held by another run; tried again at its end');
  }

  /**
   * Sends one email and records the outcome at once: sent (its secret dropped in the same statement, so no live
   * link outlasts the hand-over by more than that one round trip), or a failure that the job queue retries (the
   * secret stays so the retry sends a working link) until the last, which marks the email failed.
   */
  async function deliver(id: string, job: RunningJob): Promise<void> {
    const email = await claim(id);
    if (!email) return retryOnRelease(id); // sent already, dropped, or another run has it
    const reveal = (text: string) => (email.secret ? text.replaceAll(SECRET_PLACEHOLDER, email.secret) : text);
    try {
      await transport.send({
        id: email.id,
        to: email.toAddress,
        subject: reveal(email.subject),
        text: reveal(email.textBody ?? ''),
        html: email.htmlBody && reveal(email.htmlBody),
        attachments: email.attachments,
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      logger.warn(
        { emailId: email.id, attempts: email.attempts, err: error },
        job.final ? 'email failed for good' : 'email failed; will retry',
      );
      await db('outboxEmails')
        .where({ id: email.id })
        .update({
          status: job.final ? 'failed' : 'pending',
          lastError: message.slice(0, 2000),
          transport: transport.name,
          nextAttemptAt: db.fn.now(),
        });
      throw error;
    }
    await db('outboxEmails')
      .where({ id: email.id })
      .update({ status: 'sent', sentAt: clock.now(), transport: transport.name, lastError: null, secret: null });
  }

  /**
   * The sweep (every minute): an unsent email with no job left to send it (the run that held it died on its last
   * attempt, or a job was lost) gets a new one once its hold is over; one that had all its attempts is marked
   * failed, for the console to retry.
   */
  async function requeueStranded(): Promise<{ requeued: number; failed: number }> {
    return db.transaction(async (trx) => {
      const openJob = trx(`${JOBS_SCHEMA}.job`)
        .where('name', SEND_EMAIL)
        .whereIn('state', ['created', 'retry', 'active'])
        .whereRaw(`data->>'emailId' = outbox_emails.id::text`);
      const stranded = (await trx('outboxEmails')
        .where('status', 'pending')
        .whereNotNull('textBody')
        .where('nextAttemptAt', '<=', trx.fn.now())
        .whereNotExists(openJob)
        .orderBy('createdAt')
        .limit(STRANDED_PER_SWEEP)
        .forUpdate()
        .skipLocked()
        .select('id', 'attempts')) as Pick<OutboxEmail, 'id' | 'attempts'>[];
      const spent = stranded.filter((email) => email.attempts >= MAX_ATTEMPTS).map((email) => email.id);
      if (spent.length)
        await trx('outboxEmails')
          .whereIn('id', spent)
          .update({ status: 'failed', lastError: 'Its last attempt never finished: the process sending it stopped.' });
      const requeue = stranded.filter((email) => email.attempts < MAX_ATTEMPTS);
      for (const email of requeue) await jobs.add(trx, SEND_EMAIL, { emailId: email.id });
      if (stranded.length)
        logger.warn({ requeued: requeue.length, failed: spent.length }, 'emails left with no job to send them');
      return { requeued: requeue.length, failed: spent.length };
    });
  }

  jobs.define<{ emailId: string }>({
    name: SEND_EMAIL,
    retryLimit: MAX_ATTEMPTS - 1,
    retryDelaySeconds: retrySeconds,
    // A run that outlives every SMTP timeout belongs to a process that is gone: another replica retries it.
    expireInSeconds: transport.timeoutSeconds * 2,
    run: ({ emailId }, job) => deliver(emailId, job),
  });
  jobs.define({
    name: REQUEUE_EMAILS,
    cron: '* * * * *',
    retryLimit: 1,
    retryDelaySeconds: 10,
    expireInSeconds: 5 * 60,
    run: async () => void (await requeueStranded()),
  });

  /**
   * The row for an email. Its secret is kept apart from the bodies (never in them, so nothing redacts them later)
   * and in the row, not in memory: an email still unsent when the process stops goes out after the restart.
   */
  const rowOf = (email: NewEmail) => {
    const hide = (text: string) => (email.secret ? text.replaceAll(email.secret, SECRET_PLACEHOLDER) : text);
    return {
      id: randomUUID(),
      toAddress: email.to,
      subject: hide(email.subject),
      textBody: hide(email.text),
      htmlBody: email.html ? hide(email.html) : null,
      secret: email.secret || null,
      kind: email.kind,
      // jsonb: knex would write a bare array as a PostgreSQL array.
      attachments: email.attachments?.length ? JSON.stringify(email.attachments) : null,
      resendKey: email.resendKey ?? null,
    };
  };

  return {
    async enqueue(trx: Knex | Knex.Transaction, email: NewEmail): Promise<string> {
      const row = rowOf(email);
      await trx('outboxEmails').insert(row);
      await jobs.add(trx, SEND_EMAIL, { emailId: row.id });
      return row.id;
    },

    /**
     * `enqueue` in two parts, for a caller that writes the email as part of a larger statement (a WITH): the insert
     * for that statement, and the delivery job to add in the same transaction once it ran.
     */
    prepare(trx: Knex | Knex.Transaction, email: NewEmail): { insert: Knex.QueryBuilder; queue(): Promise<string> } {
      const row = rowOf(email);
      return { insert: trx('outboxEmails').insert(row), queue: () => jobs.add(trx, SEND_EMAIL, { emailId: row.id }) };
    },

    /** For after commit: send what was just queued, here and now; the workers have it otherwise. */
    flushInBackground(): void {
      jobs.wake(SEND_EMAIL);
    },

    requeueStranded,

    /** Sends every email due now and resolves when none is left. */
    flush(): Promise<void> {
      return jobs.runDue(SEND_EMAIL);
    },

    /**
     * Why an email cannot be sent again as a copy, or null when it can: its body was dropped after the retention
     * period, or it carried a one-time secret (a sign-in link), which is never sent twice (the person asks for a new one).
     */
    whyNotResendable,

    /**
     * Queues a copy of an email (from the console) to `to` (the person's current address; the original's when not
     * given), audited under the original. One copy per request key: a double click, or the same request retried,
     * answers the copy the first one made (`created` false). Sent after commit: the caller flushes.
     */
    async resend(
      id: string,
      request: { key: string; to?: string; actor: Actor; requestId: string | null },
    ): Promise<{ email: OutboxEmail; created: boolean }> {
      return db.transaction(async (trx) => {
        const original: OutboxEmail | undefined = await trx('outboxEmails').where({ id }).first();
        if (!original) throw new AppError('not-found', `No outbox-emails record with id ${id}.`);
        const why = whyNotResendable(original);
        if (why) throw new AppError('email-not-resendable', why);
        const copy = {
          id: randomUUID(),
          toAddress: request.to ?? original.toAddress,
          subject: original.subject,
          textBody: original.textBody,
          htmlBody: original.htmlBody,
          kind: original.kind,
          attachments: original.attachments?.length ? JSON.stringify(original.attachments) : null,
          resentFromId: original.id,
          resendKey: request.key,
        };
        const [inserted] = (await trx('outboxEmails')
          .insert(copy)
          .onConflict('resendKey')
          .ignore()
          .returning('*')) as OutboxEmail[];
        if (!inserted) {
          const made: OutboxEmail | undefined = await trx('outboxEmails').where({ resendKey: request.key }).first();
          if (made?.resentFromId !== id)
            throw new AppError('conflict', 'This request key was already used to resend another email.');
          return { email: made, created: false };
        }
        await jobs.add(trx, SEND_EMAIL, { emailId: copy.id });
        await recordAudit(trx, {
          actor: request.actor,
          requestId: request.requestId,
          action: 'resend',
          resource: 'outbox-emails',
          recordId: id,
          after: { copyId: copy.id, toAddress: copy.toAddress },
        });
        return { email: inserted, created: true };
      });
    },

    /** Makes a failed email due again (from the console), audited; not once its body was dropped. */
    async retry(id: string, actor: Actor, requestId: string | null): Promise<OutboxEmail | undefined> {
      return db.transaction(async (trx) => {
        const rows: OutboxEmail[] = await trx('outboxEmails')
          .where({ id, status: 'failed' })
          .whereNotNull('textBody')
          .update({ status: 'pending', attempts: 0, nextAttemptAt: trx.fn.now() })
          .returning('*');
        if (rows[0]) {
          await jobs.add(trx, SEND_EMAIL, { emailId: id });
          await recordAudit(trx, {
            actor,
            requestId,
            action: 'retry',
            resource: 'outbox-emails',
            recordId: id,
            before: { status: 'failed' },
            after: { status: 'pending' },
          });
        }
        return rows[0];
      });
    },
  };
}

export type Outbox = ReturnType<typeof outbox>;
