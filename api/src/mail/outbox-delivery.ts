import pLimit from 'p-limit';
import type { Clock } from '../clock';
import type { Db } from '../db/connection';
import type { Logger } from '../logger';
import { JOBS_SCHEMA } from '../jobs/models';
import type { JobQueue, RunningJob } from '../jobs/queue';
import type { OutboxEmail } from './models';
import { MAX_ATTEMPTS, SECRET_PLACEHOLDER, SEND_EMAIL } from './outbox-email';
import type { MailTransport } from './transport';

/** What sending the outbox's emails needs. */
export interface DeliveryDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  transport: MailTransport;
  jobs: JobQueue;
}

/** Stranded emails one sweep queues again at most (the next minute's takes the rest). */
const STRANDED_PER_SWEEP = 500;

/** Emails handed to the transport at once: each SMTP send opens a connection, and a relay takes only so many. */
export const SENDS_AT_ONCE = 20;

/**
 * The longest a run sending `emails` may take, each wave of SENDS_AT_ONCE within the transport's timeouts: the hold
 * on the emails it claimed, and the job's time before the queue gives it up as dead.
 */
export const runSeconds = (transport: Pick<MailTransport, 'timeoutSeconds'>, emails: number) =>
  transport.timeoutSeconds * 2 * Math.max(1, Math.ceil(emails / SENDS_AT_ONCE));

/** One run of the send job in a batch: the email it sends, and the run (whether it is its last). */
export interface EmailJob {
  data: { emailId: string };
  job: RunningJob;
}

/**
 * Takes a batch's emails for this run, in one statement: each not sent yet, its body not dropped, and not held by
 * another run (a console retry while its first job still runs). The hold lasts as long as the run may; a failure
 * releases it.
 */
async function claimAll({ db, transport }: DeliveryDeps, ids: string[]): Promise<OutboxEmail[]> {
  return db('outboxEmails')
    .whereIn('id', ids)
    .whereNot('status', 'sent')
    .whereNotNull('textBody')
    .where('nextAttemptAt', '<=', db.fn.now())
    .update({
      attempts: db.raw('attempts + 1'),
      nextAttemptAt: db.raw(`now() + make_interval(secs => ?)`, [runSeconds(transport, ids.length)]),
    })
    .returning('*');
}

/**
 * For runs that found their email held by another run, which may have died with its process (pg-boss counts a
 * run's time from its start, the hold from the later claim, so a dead run's retry can come before its hold ends):
 * they must not end as if the email were sent. A job waits for each hold's end, when whichever run claims the email
 * first sends it, and a later one finds it sent. Nothing to do once it is sent or its body was dropped.
 */
async function retryOnRelease({ db, jobs, logger }: DeliveryDeps, ids: string[]): Promise<void> {
  if (!ids.length) return;
  const unsent = (await db('outboxEmails')
    .whereIn('id', ids)
    .whereNot('status', 'sent')
    .whereNotNull('textBody')
    // A second past the hold: the job's start and the hold are compared on different statements' clocks.
    .select('id', db.raw(`greatest(next_attempt_at, now()) + interval '1 second' as released_at`))) as {
    id: string;
    releasedAt: Date;
  }[];
  for (const { id, releasedAt } of unsent) {
    await jobs.add(db, SEND_EMAIL, { emailId: id }, { startAfter: releasedAt });
    logger.debug({ emailId: id, releasedAt }, 'email held by another run; tried again at its end');
  }
}

/** Hands one claimed email to the transport, its secret put back: when it went, or why it did not. */
async function send(
  { clock, transport }: DeliveryDeps,
  email: OutboxEmail,
): Promise<{ sentAt: Date } | { error: unknown }> {
  const reveal = (text: string) => (email.secret ? text.replaceAll(SECRET_PLACEHOLDER, email.secret) : text);
  try {
    await transport.send({
      id: email.id,
      to: email.toAddress,
      fromName: email.fromName,
      replyTo: email.replyTo,
      subject: reveal(email.subject),
      text: reveal(email.textBody ?? ''),
      html: email.htmlBody && reveal(email.htmlBody),
      attachments: email.attachments,
      listUnsubscribeUrl: email.listUnsubscribeUrl,
    });
    return { sentAt: clock.now() };
  } catch (error) {
    return { error };
  }
}

interface Outcome {
  id: string;
  status: 'sent' | 'pending' | 'failed';
  sentAt: Date | null;
  lastError: string | null;
}

/**
 * Every outcome of a batch in one statement: a sent email's secret is dropped by the statement that marks it sent;
 * a failed one keeps it for the retry, pending (its hold released) or failed on its last attempt.
 */
async function recordOutcomes({ db, transport }: DeliveryDeps, outcomes: Outcome[]): Promise<void> {
  if (!outcomes.length) return;
  const values = db.raw(outcomes.map(() => '(?::uuid, ?::text, ?::timestamptz, ?::text)').join(', '), [
    ...outcomes.flatMap((o) => [o.id, o.status, o.sentAt, o.lastError]),
  ]);
  await db.raw(
    `UPDATE outbox_emails AS e
        SET status = o.status,
            sent_at = coalesce(o.sent_at, e.sent_at),
            transport = ?,
            last_error = o.last_error,
            secret = CASE WHEN o.status = 'sent' THEN NULL ELSE e.secret END,
            next_attempt_at = CASE WHEN o.status = 'sent' THEN e.next_attempt_at ELSE now() END
       FROM (VALUES ?) AS o (id, status, sent_at, last_error)
      WHERE e.id = o.id`,
    [transport.name, values],
  );
}

/**
 * Sends a batch of emails, one per job: claimed in one statement, handed to the transport together, SENDS_AT_ONCE at
 * a time (the claim's hold and the job's time allow for every wave), and every outcome recorded in one statement
 * once all have settled: sent (its secret dropped in that statement, so no live link outlasts its hand-over by more
 * than the batch's sends), or a failure that the job queue retries (the secret stays so the retry sends a working
 * link) until the last, which marks the email failed. Answers each job's failure, in order (undefined: done).
 */
export async function deliverAll(deps: DeliveryDeps, batch: EmailJob[]): Promise<unknown[]> {
  const claimed = new Map((await claimAll(deps, [...new Set(batch.map((b) => b.data.emailId))])).map((e) => [e.id, e]));
  // Two jobs of one email in a batch: the first sends it, the other finds it held, as by another run.
  const runs = batch.map(({ data, job }) => {
    const email = claimed.get(data.emailId);
    claimed.delete(data.emailId);
    return { emailId: data.emailId, job, email };
  });
  const atOnce = pLimit(SENDS_AT_ONCE);
  const sends = await Promise.all(runs.map((run) => (run.email ? atOnce(() => send(deps, run.email!)) : undefined)));
  const failures = sends.map((sent) => (sent && 'error' in sent ? sent.error : undefined));
  await recordOutcomes(
    deps,
    runs.flatMap<Outcome>(({ email, job }, n) => {
      const sent = sends[n];
      if (!email || !sent) return [];
      if ('sentAt' in sent) return [{ id: email.id, status: 'sent', sentAt: sent.sentAt, lastError: null }];
      const message = sent.error instanceof Error ? sent.error.message : String(sent.error);
      deps.logger.warn(
        { emailId: email.id, attempts: email.attempts, err: sent.error },
        job.final ? 'email failed for good' : 'email failed; will retry',
      );
      return [
        { id: email.id, status: job.final ? 'failed' : 'pending', sentAt: null, lastError: message.slice(0, 2000) },
      ];
    }),
  );
  await retryOnRelease(
    deps,
    runs.filter((run) => !run.email).map((run) => run.emailId),
  );
  return failures;
}

/**
 * The sweep (every minute): an unsent email with no job left to send it (the run that held it died on its last
 * attempt, or a job was lost) gets a new one once its hold is over; one that had all its attempts is marked
 * failed, for the console to retry.
 */
export async function requeueStranded({
  db,
  jobs,
  logger,
}: Pick<DeliveryDeps, 'db' | 'jobs' | 'logger'>): Promise<{ requeued: number; failed: number }> {
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
