import type { Db } from '../../api/src/db/connection';
import { JOBS_SCHEMA } from '../../api/src/jobs/models';

export interface JobRow {
  id: string;
  state: string;
  retryCount: number;
  startAfter: Date;
  data: Record<string, unknown>;
  output: { message?: string } | null;
}

/** The jobs of one kind, oldest first, as the queue holds them. */
export async function jobsOf(db: Db, name: string): Promise<JobRow[]> {
  return db
    .withSchema(JOBS_SCHEMA)
    .from('job')
    .where({ name })
    .orderBy('createdOn')
    .select('id', 'state', 'retryCount', 'startAfter', 'data', 'output');
}

/**
 * Brings a kind's waiting retries forward to now, as the passing of their backoff would; first waits for the runs
 * under way to end (a failed run becomes a retry only once its runner recorded the failure).
 */
export async function makeRetriesDue(db: Db, name: string): Promise<number> {
  // A plain wait (not expect.poll): hooks call this too.
  const deadline = Date.now() + 10_000;
  while ((await db.withSchema(JOBS_SCHEMA).from('job').where({ name, state: 'active' })).length) {
    if (Date.now() > deadline) throw new Error(`a ${name} job is still running after 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return db.withSchema(JOBS_SCHEMA).from('job').where({ name, state: 'retry' }).update({ startAfter: db.fn.now() });
}

/**
 * Waits until no job of a kind is due or running: what the app woke after its commits (the emails it sends there and
 * then, at most a wake gap later) is done, and a snapshot of the rows it touches holds still.
 */
export async function jobsSettled(db: Db, name: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  const busy = () =>
    db
      .withSchema(JOBS_SCHEMA)
      .from('job')
      .where({ name })
      .where((q) =>
        q
          .where({ state: 'active' })
          .orWhere((due) => due.where({ state: 'created' }).where('startAfter', '<=', db.fn.now())),
      )
      .first('id');
  while (await busy()) {
    if (Date.now() > deadline) throw new Error(`${name} jobs were still due or running after 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * As if `seconds` passed for the queue and the outbox: runs started, retries waiting and emails held move back by that
 * much. A process killed mid-run is then found out by the queue's maintenance (jobs.boss.expire()).
 */
export async function passTime(db: Db, seconds: number): Promise<void> {
  const back = (column: string) => db.raw(`?? - make_interval(secs => ?)`, [column, seconds]);
  await db
    .withSchema(JOBS_SCHEMA)
    .from('job')
    .whereIn('state', ['created', 'retry', 'active'])
    .update({ startedOn: back('started_on'), startAfter: back('start_after') });
  await db('outboxEmails')
    .whereNot('status', 'sent')
    .update({ nextAttemptAt: back('next_attempt_at') });
}
