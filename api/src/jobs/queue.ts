import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import PgBoss from 'pg-boss';
import type { Db } from '../db/connection';
import type { Logger } from '../logger';
import { recordAudit, type Actor } from '../audit/record';
import { databaseUnavailable, unavailableSummary } from '../db/unavailable';
import { knexExecutor, knexStatement } from './knex-executor';
import { JOBS_SCHEMA, type QueueJob } from './models';

/** How a kind of job is run: its handler, retries (with exponential backoff), how long one run may take, a schedule. */
export type JobKind<Data extends object = object> = JobKindTerms &
  (
    | { run(data: Data, job: RunningJob): Promise<void> }
    | {
        /** Jobs taken by one fetch, at most; they run together, so each one's time starts with the batch's. */
        batchSize: number;
        /**
         * Runs the batch and answers each job's failure in their order (undefined: it succeeded). It throws only for
         * what failed every job of the batch.
         */
        runBatch(jobs: { data: Data; job: RunningJob }[]): Promise<unknown[]>;
      }
  );

interface JobKindTerms {
  name: string;
  /** Runs beyond the first; a run that throws is retried after retryDelaySeconds, doubling, with jitter. */
  retryLimit: number;
  retryDelaySeconds: number;
  /**
   * A run not finished in this time (its process died, or it hangs) is failed by whichever replica maintains the
   * queue next, and retried like any failure. Keep it above every timeout inside the run.
   */
  expireInSeconds: number;
  /** Cron (UTC): pg-boss adds one job per period across every replica, and one worker runs it. */
  cron?: string;
  /**
   * Runs that commits wake (`wake`) start at most this often (milliseconds; default 0, at once every time): a lone
   * wake runs at once, but a burst's wakes gather their jobs into fuller fetches, each a few statements for up to
   * `batchSize` jobs, rather than a run for every commit's few.
   */
  wakeGapMs?: number;
}

export interface RunningJob {
  id: string;
  /** 0 on the first run. */
  retryCount: number;
  retryLimit: number;
  /** Whether this is the last run the job gets. */
  final: boolean;
  /** Aborted when the queue stops (the server shuts down): a long run ends early and is retried later. */
  signal: AbortSignal;
}

interface FetchedJob {
  id: string;
  data: object;
  retryCount: number;
  retryLimit: number;
}

export interface JobQueueOptions {
  db: Db;
  logger: Logger;
  /** How often a worker looks for jobs it was not woken for (retries, other replicas' leftovers). */
  pollSeconds?: number;
  /** How often one replica (whichever gets there first) fails expired runs and archives old jobs. */
  maintenanceSeconds?: number;
}

const errorOutput = (error: unknown) => ({
  message: (error instanceof Error ? error.message : String(error)).slice(0, 2000),
});

/**
 * Background work on PostgreSQL, through pg-boss. Jobs are added inside the caller's transaction (a rolled-back
 * action leaves none); `wake` runs what is due in this process right after commit; `start` (servers only) adds the
 * workers that poll for the rest, the schedules, and the maintenance that recovers runs of a replica that died.
 */
export function jobQueue({ db, logger, pollSeconds = 2, maintenanceSeconds = 15 }: JobQueueOptions) {
  // Until start(), pg-boss is only a set of statements run on `db`: no timers, nothing to stop.
  let started = false;
  let stopping = false;
  const shutdown = new AbortController();
  const boss = new PgBoss({
    db: knexExecutor(db),
    schema: JOBS_SCHEMA,
    migrate: false, // the migrations create and upgrade its schema
    supervise: true,
    schedule: true,
    maintenanceIntervalSeconds: maintenanceSeconds,
    // Failed jobs stay where the console lists and retries them; finished ones are archived after a day.
    archiveCompletedAfterSeconds: 24 * 60 * 60,
    archiveFailedAfterSeconds: 30 * 24 * 60 * 60,
  });
  // While stopping, the database may already be going away (Ctrl-C reaches the embedded server too): not news.
  // A database that is away otherwise (a restart, a failover) is one line, not a stack; the next run tries again.
  const report = (error: unknown, context: object, message: string, level: 'warn' | 'error' = 'warn') => {
    if (stopping) logger.debug({ ...context, message: String(error) }, `${message} (stopping)`);
    else if (databaseUnavailable(error))
      logger.warn({ ...context, ...unavailableSummary(error) }, `${message}: database unavailable`);
    else logger[level]({ ...context, err: error }, message);
  };
  boss.on('error', (error) => report(error, {}, 'job queue maintenance failed'));
  const kinds = new Map<string, JobKind>();
  const draining = new Map<string, { again: boolean; done: Promise<void> }>();
  /** When each kind's last woken run began (`wakeGapMs`). */
  const lastWoken = new Map<string, number>();

  function kind(name: string): JobKind {
    const found = kinds.get(name);
    if (!found) throw new Error(`no job kind named ${name}`);
    return found;
  }

  const runningJob = (fetched: FetchedJob): RunningJob => ({
    id: fetched.id,
    retryCount: fetched.retryCount,
    retryLimit: fetched.retryLimit,
    final: fetched.retryCount >= fetched.retryLimit,
    signal: shutdown.signal,
  });

  /** Runs a fetch's jobs and answers each one's failure (undefined: it succeeded), in their order. */
  async function runAll(job: JobKind, batch: FetchedJob[]): Promise<unknown[]> {
    if ('runBatch' in job) {
      try {
        return await job.runBatch(batch.map((fetched) => ({ data: fetched.data, job: runningJob(fetched) })));
      } catch (error) {
        return batch.map(() => error);
      }
    }
    const failures: unknown[] = [];
    for (const fetched of batch)
      failures.push(
        await job.run(fetched.data, runningJob(fetched)).then(
          () => undefined,
          (error: unknown) => error,
        ),
      );
    return failures;
  }

  /**
   * Records the failed runs of a batch: one call per distinct error (each job keeps its own message for the
   * console), the queue retrying each with backoff or failing it on its last run.
   */
  async function failAll(name: string, batch: FetchedJob[], failures: unknown[]): Promise<void> {
    const byMessage = new Map<string, string[]>();
    batch.forEach((fetched, n) => {
      if (failures[n] === undefined) return;
      report(failures[n], { job: name, jobId: fetched.id }, 'job failed');
      const { message } = errorOutput(failures[n]);
      byMessage.set(message, [...(byMessage.get(message) ?? []), fetched.id]);
    });
    // pg-boss takes an output for several ids as for one (fail(name, ids, data)); its types name only the one's.
    const failMany = boss.fail.bind(boss) as (name: string, ids: string[], data: object) => Promise<void>;
    for (const [message, ids] of byMessage) await failMany(name, ids, { message });
  }

  /**
   * Runs every job of this kind that is due now, here; the queue's lock keeps each to one runner. A fetch takes one
   * job, or a kind's batch: a fetched job's time (expireInSeconds) starts at once, so one waiting behind others could
   * be given up as dead, and run again by another replica, before it even began here; a batch runs its jobs together.
   * Its successes are completed by one call, its failures by one per error.
   */
  async function drain(name: string): Promise<void> {
    const job = kind(name);
    const batchSize = 'batchSize' in job ? job.batchSize : 1;
    for (;;) {
      if (stopping) return;
      const batch = (await boss.fetch(name, { batchSize, includeMetadata: true })) as unknown as FetchedJob[];
      if (!batch.length) return;
      const failures = await runAll(job, batch);
      const done = batch.filter((_, n) => failures[n] === undefined).map((fetched) => fetched.id);
      if (done.length) await boss.complete(name, done);
      await failAll(name, batch, failures);
      // A fetch short of a batch took every job due: no fetch more to find none (a wake meanwhile looks again).
      if (batch.length < batchSize) return;
    }
  }

  /**
   * `retry` inside the caller's transaction (several jobs retried at once, all or none); the caller wakes the
   * workers for the job's name once it has committed.
   */
  async function retryIn(
    trx: Knex.Transaction,
    id: string,
    actor: Actor,
    requestId: string | null,
  ): Promise<QueueJob | undefined> {
    const failed: Pick<QueueJob, 'name'> | undefined = await trx(`${JOBS_SCHEMA}.job`)
      .where({ id, state: 'failed' })
      .forUpdate()
      .first('name');
    if (!failed) return undefined;
    await boss.retry(failed.name, id, { db: knexExecutor(trx) } as PgBoss.ConnectionOptions);
    await recordAudit(trx, {
      actor,
      requestId,
      action: 'retry',
      resource: 'jobs',
      recordId: id,
      before: { state: 'failed' },
      after: { state: 'retry' },
    });
    return trx(`${JOBS_SCHEMA}.job`).where({ id }).first();
  }

  return {
    /** Declares a kind of job; its queue must exist (a migration creates it). */
    define<Data extends object>(job: JobKind<Data>): void {
      kinds.set(job.name, job as unknown as JobKind);
    },

    /**
     * Adds a job inside `trx`: it exists only if the transaction commits. Returns the job's id. `startAfter`: not
     * run before then.
     */
    async add(
      trx: Knex | Knex.Transaction,
      name: string,
      data: object,
      { startAfter }: { startAfter?: Date } = {},
    ): Promise<string> {
      const job = kind(name);
      const id = await boss.send(name, data, {
        retryLimit: job.retryLimit,
        retryDelay: job.retryDelaySeconds,
        retryBackoff: true,
        expireInSeconds: job.expireInSeconds,
        ...(startAfter && { startAfter }),
        db: knexExecutor(trx),
      } as PgBoss.SendOptions);
      if (!id) throw new Error(`the job queue refused a ${name} job`);
      return id;
    },

    /**
     * `add`'s insert, not sent: for a caller that sends it as part of a larger statement (a WITH) in `trx`, so the
     * job costs no round trip of its own. The job exists once that statement runs and `trx` commits.
     */
    async prepare(trx: Knex.Transaction, name: string, data: object): Promise<{ id: string; insert: Knex.Raw }> {
      const job = kind(name);
      const id = randomUUID();
      let insert: Knex.Raw | undefined;
      // pg-boss builds its statement and hands it to this executor, which keeps it rather than sending it.
      const keep = {
        executeSql: async (text: string, values?: unknown[]) => {
          insert = knexStatement(trx, text, values);
          return { rows: [{ id }] };
        },
      };
      await boss.send(name, data, {
        id,
        retryLimit: job.retryLimit,
        retryDelay: job.retryDelaySeconds,
        retryBackoff: true,
        expireInSeconds: job.expireInSeconds,
        db: keep,
      } as PgBoss.SendOptions);
      if (!insert) throw new Error(`the job queue wrote no ${name} job`);
      return { id, insert };
    },

    /**
     * `prepare` for several jobs of a kind in one insert, its text the same however many (the jobs travel as one JSON
     * parameter); null for none. Wrapped: a raw handed back by an async function would run as the promise resolves.
     */
    async prepareMany(trx: Knex.Transaction, name: string, data: object[]): Promise<{ insert: Knex.Raw } | null> {
      if (data.length === 0) return null;
      const job = kind(name);
      let insert: Knex.Raw | undefined;
      const keep = {
        executeSql: async (text: string, values?: unknown[]) => {
          insert = knexStatement(trx, text, values);
          return { rows: [] };
        },
      };
      await boss.insert(
        data.map((one) => ({
          id: randomUUID(),
          name,
          data: one,
          retryLimit: job.retryLimit,
          retryDelay: job.retryDelaySeconds,
          retryBackoff: true,
          expireInSeconds: job.expireInSeconds,
        })),
        { db: keep } as PgBoss.InsertOptions,
      );
      if (!insert) throw new Error(`the job queue wrote no ${name} jobs`);
      return { insert };
    },

    /**
     * After commit: run what is due of this kind now, in this process, without failing the caller. Calls while a
     * run is under way make it look once more, so a job committed meanwhile is not left to the next poll.
     */
    wake(name: string): void {
      const current = draining.get(name);
      if (current) {
        current.again = true;
        return;
      }
      const state = { again: false, done: Promise.resolve() };
      const gap = kinds.get(name)?.wakeGapMs ?? 0;
      state.done = (async () => {
        do {
          state.again = false;
          // A timer may fire a millisecond early by the wall clock: waited out until the gap has passed by it.
          for (let wait = (lastWoken.get(name) ?? 0) + gap - Date.now(); wait > 0;) {
            await new Promise((resolve) => setTimeout(resolve, wait));
            wait = (lastWoken.get(name) ?? 0) + gap - Date.now();
          }
          lastWoken.set(name, Date.now());
          await drain(name);
        } while (state.again && !stopping);
      })()
        .catch((error) => report(error, { job: name }, 'running jobs failed', 'error'))
        .finally(() => draining.delete(name));
      draining.set(name, state);
    },

    /**
     * Runs what is due of this kind and resolves when none is left, nor any run `wake` started here (a job this
     * process is running is not offered again, so waiting for it is the only way to see it done).
     */
    async runDue(name: string): Promise<void> {
      await draining.get(name)?.done;
      await drain(name);
    },

    /** Servers: workers polling every queue, the schedules (once per period across replicas), maintenance. */
    async start(): Promise<void> {
      await boss.start();
      started = true;
      for (const job of kinds.values()) {
        // pg-boss completes the whole batch once the handler resolves: the failures, recorded first, are no longer
        // active, so that one call completes the rest only.
        await boss.work(
          job.name,
          {
            batchSize: 'batchSize' in job ? job.batchSize : 1,
            pollingIntervalSeconds: pollSeconds,
            includeMetadata: true,
          },
          async (fetched) => {
            const batch = fetched as unknown as FetchedJob[];
            await failAll(job.name, batch, await runAll(job, batch));
          },
        );
        if (job.cron) await boss.schedule(job.name, job.cron, {}, { retryLimit: job.retryLimit, tz: 'UTC' });
        else await boss.unschedule(job.name).catch(() => undefined);
      }
    },

    /** Stops taking jobs and waits (up to `timeoutMs`) for the runs under way, here and in the workers. */
    async stop(timeoutMs = 30_000): Promise<void> {
      stopping = true;
      shutdown.abort();
      await Promise.all([...draining.values()].map((state) => state.done));
      if (started) await boss.stop({ graceful: true, wait: true, timeout: timeoutMs, close: false });
    },

    /**
     * A failed job runs again (from the console), once more than it was allowed, audited in the same transaction.
     * Resolves with the job, or undefined when there is no failed job with that id.
     */
    async retry(id: string, actor: Actor, requestId: string | null): Promise<QueueJob | undefined> {
      const job = await db.transaction((trx) => retryIn(trx, id, actor, requestId));
      if (job) this.wake(job.name);
      return job;
    },

    /**
     * `retry` inside the caller's transaction (several jobs retried at once, all or none): the caller wakes the
     * workers once it has committed.
     */
    retryIn,

    /** pg-boss itself, for what the wrapper does not say (its maintenance, in tests). */
    boss,
  };
}

export type JobQueue = ReturnType<typeof jobQueue>;
