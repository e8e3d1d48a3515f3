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

/**
 * Takes one email for this run: not sent yet, its body not dropped, and not held by another run (a console retry
 * while its first job still runs). The hold lasts as long as the run may; a failure releases it.
 */
async function claim({ db, transport }: DeliveryDeps, id: string): Promise<OutboxEmail | undefined> {
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
async function retryOnRelease({ db, jobs, logger }: DeliveryDeps, id: string): Promise<void> {
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
export async function deliver(deps: DeliveryDeps, id: string, job: RunningJob): Promise<void> {
  const { db, clock, logger, transport } = deps;
  const email = await claim(deps, id);
  if (!email) return retryOnRelease(deps, id); // sent already, dropped, or another run has it
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
