import type { Knex } from 'knex';
import type { Clock } from '../clock';
import type { Db } from '../db/connection';
import type { Logger } from '../logger';
import { jobQueue, type JobQueue } from '../jobs/queue';
import type { Actor } from '../audit/record';
import { resendEmail, retryFailedEmail, type ResendRequest } from './outbox-console';
import { deliverAll, requeueStranded, runSeconds, type DeliveryDeps } from './outbox-delivery';
import { emailRow, MAX_ATTEMPTS, REQUEUE_EMAILS, SEND_EMAIL, whyNotResendable, type NewEmail } from './outbox-email';
import { brandedEmail, type Brand } from './layout';
import type { MailTransport } from './transport';

export {
  MAX_ATTEMPTS,
  REQUEUE_EMAILS,
  SECRET_PLACEHOLDER,
  SEND_EMAIL,
  whyNotResendable,
  type NewEmail,
} from './outbox-email';

/**
 * Emails one fetch of the send job takes at most: a burst of sales' receipts in a few runs of four statements each,
 * handed to the relay SENDS_AT_ONCE at a time.
 */
const DELIVERY_BATCH = 50;

/**
 * While emails keep coming (a burst of sales), a run to send them starts at most this often: a receipt waits at most
 * this long more, and each run's four statements send up to DELIVERY_BATCH emails rather than one commit's few.
 */
const WAKE_GAP_MS = 250;

/**
 * The outbox: each email is a row written in the caller's transaction together with one `send-email` job (so a
 * rolled-back action sends nothing), delivered right after commit by the process that wrote it, else by any
 * replica's worker, retried with backoff by the job queue and marked failed at last. One email, one job, and jobs
 * run in batches: a replica that dies mid-send holds up its batch's emails only, until their hold ends and another
 * replica takes them (a job waits for that end; the minute's sweep gives any email left unsent with no job a new one).
 *
 * Built from its parts: what an email's row is (outbox-email.ts), sending and the sweep (outbox-delivery.ts), the
 * console's resend and retry (outbox-console.ts).
 */
export function outbox({
  db,
  clock,
  logger,
  transport,
  jobs = jobQueue({ db, logger }),
  retrySeconds = 30,
  brand,
}: {
  db: Db;
  clock: Clock;
  logger: Logger;
  transport: MailTransport;
  /** The app's queue; an outbox on its own (a tool, a test) gets one of its own. */
  jobs?: JobQueue;
  /** EMAIL_RETRY_SECONDS. */
  retrySeconds?: number;
  /**
   * The school the emails come from, read through the connection that writes the email (no second connection
   * while a transaction holds one). Without it (a tool, a test) emails go out as written, from MAIL_FROM.
   */
  brand?: (conn: Knex) => Promise<Brand>;
}) {
  const deps: DeliveryDeps = { db, clock, logger, transport, jobs };
  const requeue = () => requeueStranded(deps);
  // One read of the school per transaction, however many emails it writes (a waitlist's openings, a bulk resend).
  const brandOf = new WeakMap<Knex, Promise<Brand>>();
  const brandFor = (conn: Knex) => {
    if (!brand) return null;
    if (!conn.isTransaction) return brand(conn);
    let read = brandOf.get(conn);
    if (!read) brandOf.set(conn, (read = brand(conn)));
    return read;
  };
  /** The email's row, in the school's brand as it is now: the email keeps it, whatever the school changes later. */
  const rowOf = async (conn: Knex, email: NewEmail) => {
    const school = await brandFor(conn);
    return emailRow(school ? brandedEmail(email, school) : email);
  };

  jobs.define<{ emailId: string }>({
    name: SEND_EMAIL,
    retryLimit: MAX_ATTEMPTS - 1,
    retryDelaySeconds: retrySeconds,
    // A run that outlives every SMTP timeout of its sends belongs to a process that is gone: another replica retries it.
    expireInSeconds: runSeconds(transport, DELIVERY_BATCH),
    // One fetch, claim, sent mark and completion for many emails (a batch of fulfilments' receipts), sent together.
    batchSize: DELIVERY_BATCH,
    runBatch: (batch) => deliverAll(deps, batch),
    // In a burst of sales, each batch of fulfilments' receipts is sent with the others of the next moment.
    wakeGapMs: WAKE_GAP_MS,
  });
  jobs.define({
    name: REQUEUE_EMAILS,
    cron: '* * * * *',
    retryLimit: 1,
    retryDelaySeconds: 10,
    expireInSeconds: 5 * 60,
    run: async () => void (await requeue()),
  });

  return {
    async enqueue(trx: Knex | Knex.Transaction, email: NewEmail): Promise<string> {
      const row = await rowOf(trx, email);
      await trx('outboxEmails').insert(row);
      await jobs.add(trx, SEND_EMAIL, { emailId: row.id });
      return row.id;
    },

    /**
     * `enqueue` in two parts, for a caller that writes the email as part of a larger statement (a WITH): the insert
     * for that statement, and the delivery job to add in the same transaction once it ran.
     */
    async prepare(
      trx: Knex | Knex.Transaction,
      email: NewEmail,
    ): Promise<{ insert: Knex.QueryBuilder; queue(): Promise<string> }> {
      const row = await rowOf(trx, email);
      return { insert: trx('outboxEmails').insert(row), queue: () => jobs.add(trx, SEND_EMAIL, { emailId: row.id }) };
    },

    /**
     * The email's row and its delivery job as two inserts for one larger statement (a WITH) in `trx`: no round
     * trip of their own. Nothing is written unless that statement runs, and nothing sent unless `trx` commits.
     */
    async prepareWithJob(
      trx: Knex.Transaction,
      email: NewEmail,
    ): Promise<{ insert: Knex.QueryBuilder; job: Knex.Raw }> {
      const row = await rowOf(trx, email);
      const { insert: job } = await jobs.prepare(trx, SEND_EMAIL, { emailId: row.id });
      return { insert: trx('outboxEmails').insert(row), job };
    },

    /**
     * The email's row, for a caller that writes several emails in one insert; their delivery jobs go with it
     * (`deliveryJobs`). Nothing is written unless that statement runs.
     */
    row: (trx: Knex.Transaction, email: NewEmail) => rowOf(trx, email),

    /** The delivery jobs of emails written together (`row`), as one insert for the same statement; null for none. */
    deliveryJobs: (trx: Knex.Transaction, emailIds: string[]) =>
      jobs.prepareMany(
        trx,
        SEND_EMAIL,
        emailIds.map((emailId) => ({ emailId })),
      ),

    /** For after commit: send what was just queued, here and now; the workers have it otherwise. */
    flushInBackground(): void {
      jobs.wake(SEND_EMAIL);
    },

    requeueStranded: requeue,

    /** Sends every email due now and resolves when none is left. */
    flush(): Promise<void> {
      return jobs.runDue(SEND_EMAIL);
    },

    /**
     * Why an email cannot be sent again as a copy, or null when it can: its body was dropped after the retention
     * period, or it carried a one-time secret (a sign-in link), which is never sent twice (the person asks for a new one).
     */
    whyNotResendable,

    resend: (id: string, request: ResendRequest) => resendEmail(deps, id, request),
    retry: (id: string, actor: Actor, requestId: string | null) => retryFailedEmail(deps, id, actor, requestId),
  };
}

export type Outbox = ReturnType<typeof outbox>;
