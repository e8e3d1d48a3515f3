import type { Logger } from '../logger';
import type { JobQueue } from './queue';

export const PRUNE = 'prune';
export const EXPIRE_TRANSFERS = 'expire-transfers';
export const EXPIRE_CHECKOUTS = 'expire-checkouts';
export const WORKSHOP_REMINDERS = 'workshop-reminders';

interface RecurringWork {
  /** Drops expired credentials, rate-limit windows and email bodies past their retention. */
  prune(): Promise<Record<string, number>>;
  /** Every read applies a transfer's expiry too; this keeps the console's list of transfers true. */
  expireTransfers(): Promise<unknown>;
  /** Ends checkouts left unpaid past their time; their reserved coupon uses come back. */
  expireCheckouts(): Promise<unknown>;
  /** Queues the day's and the hour's reminders of workshop sessions, once per holder and session. */
  sendWorkshopReminders(): Promise<unknown>;
}

/**
 * The scheduled work, each run once per period across every replica (the queue adds one job per period, one worker
 * takes it). A run that fails is logged and retried once; the next period runs anyway.
 */
export function defineRecurringJobs(jobs: JobQueue, work: RecurringWork, logger: Logger): void {
  jobs.define({
    name: PRUNE,
    cron: '0 * * * *',
    retryLimit: 1,
    retryDelaySeconds: 60,
    expireInSeconds: 15 * 60,
    run: async () => logger.debug({ pruned: await work.prune() }, 'pruned expired credentials'),
  });
  jobs.define({
    name: EXPIRE_TRANSFERS,
    cron: '* * * * *',
    retryLimit: 1,
    retryDelaySeconds: 10,
    expireInSeconds: 5 * 60,
    run: async () => void (await work.expireTransfers()),
  });
  jobs.define({
    name: EXPIRE_CHECKOUTS,
    cron: '* * * * *',
    retryLimit: 1,
    retryDelaySeconds: 10,
    expireInSeconds: 5 * 60,
    run: async () => void (await work.expireCheckouts()),
  });
  // Every 5 minutes: a reminder goes out at most 5 minutes after its session enters the day's or the hour's window.
  jobs.define({
    name: WORKSHOP_REMINDERS,
    cron: '*/5 * * * *',
    retryLimit: 1,
    retryDelaySeconds: 30,
    expireInSeconds: 5 * 60,
    run: async () => void (await work.sendWorkshopReminders()),
  });
}
