/**
 * A job of the queue as the `jobs` resource answers it (api/src/admin/resources/jobs.ts, the columns of pg-boss's
 * table as api/src/jobs/models.ts reads them), dates as ISO strings. The API has no answer type for it in a
 * schemas.ts yet, so it is written out here; keep the two alike.
 */
export type JobState = 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';

export interface Job {
  id: string;
  /** The kind of job (its queue): send-email, expire-transfers, expire-checkouts, prune. */
  name: string;
  state: JobState;
  /** What the job was given, e.g. `{ emailId }` for send-email. */
  data: Record<string, unknown> | null;
  /** What its last run left: for a failure, `{ message, ... }`. */
  output: Record<string, unknown> | null;
  /** Runs beyond the first so far, and allowed. */
  retryCount: number;
  retryLimit: number;
  /** When it may run (next, for a queued job or a retry). */
  startAfter: string;
  startedOn: string | null;
  completedOn: string | null;
  createdOn: string;
}

/** Error messages longer than this are cut in the list (the job's page shows all of it). */
export const excerpt = (text: string, length = 90) => (text.length > length ? `${text.slice(0, length)}…` : text);

/** The failure's message a run left in the job's output, if any. */
export function errorOf(job: Pick<Job, 'output'>): string | null {
  const message = job.output?.message;
  return typeof message === 'string' && message ? message : null;
}

/** The email a send-email job delivers. */
export function emailIdOf(job: Pick<Job, 'name' | 'data'>): string | null {
  const id = job.name === 'send-email' ? job.data?.emailId : undefined;
  return typeof id === 'string' && id ? id : null;
}
