import type { Config } from './config';
import { SEND_EMAIL } from './mail/outbox';
import type { Services } from './services';

/**
 * Work beside the requests, on the job queue: this process's workers (emails, the scheduled work, and what other
 * replicas left when they stopped), unless JOB_WORKERS=false. Returns a stop function that takes no more jobs and
 * waits for the runs under way. Charges still without an invoice (from before invoices) get a job issuing theirs,
 * which any replica's workers run.
 */
export async function startBackgroundWork(
  services: Pick<Services, 'jobs' | 'earlierInvoices'>,
  config: Pick<Config, 'JOB_WORKERS'>,
): Promise<() => Promise<void>> {
  await services.earlierInvoices.queue();
  if (config.JOB_WORKERS) {
    await services.jobs.start();
    services.jobs.wake(SEND_EMAIL); // emails an earlier run left unsent
  }
  return () => services.jobs.stop();
}
