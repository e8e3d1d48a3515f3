import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db/connection';
import type { RateLimiter } from '../../identity/rate-limit';
import type { JobQueue } from '../../jobs/queue';
import type { Logger } from '../../logger';
import type { Outbox } from '../../mail/outbox';
import { joinWaitlist, leaveWaitlist } from './membership';
import { notifyOpening } from './opening-emails';
import { sweepWaitlists, WAITLIST_OPENING } from './opening-sweep';

export { WAITLIST_OPENING } from './opening-sweep';

/** The sweep that notices products opening (every minute, once across replicas). */
export const WAITLIST_SWEEP = 'waitlist-sweep';

/**
 * Waitlists (issue 17): people join a product that cannot be bought; when it opens (seats again, enrollment open, on
 * sale), each is emailed once per opening, with a link to the product and one to leave the list.
 *
 * A sweep every minute compares each waited-for product with how it last found it: closed → open counts an opening
 * and queues that opening's job in the same transaction. The job emails the people not yet emailed for the current
 * opening in batches, each batch's emails queued in the outbox in the transaction that marks them (`notified_opening`,
 * `notified_at`), entries locked (SKIP LOCKED), so however many jobs or replicas run, each person gets one email per
 * opening. A product found closed again stops the job; nobody is emailed about a product that cannot be bought.
 *
 * Built from its parts: joining and leaving (membership.ts), the sweep (opening-sweep.ts), an opening's emails
 * (opening-emails.ts), all judging a product by sale-state.ts.
 */
export function waitlistService(deps: {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'publicUrl' | 'COMMERCE_LIMIT_SCALE'>;
  logger: Logger;
  outbox: Pick<Outbox, 'enqueue' | 'flushInBackground'>;
  jobs: Pick<JobQueue, 'add'>;
  limiter: RateLimiter;
}) {
  return {
    join: (request: Parameters<typeof joinWaitlist>[1]) => joinWaitlist(deps, request),
    leave: (link: Parameters<typeof leaveWaitlist>[1]) => leaveWaitlist(deps, link),
    sweep: () => sweepWaitlists(deps),
    notifyOpening: (productId: string) => notifyOpening(deps, productId),
  };
}

export type WaitlistService = ReturnType<typeof waitlistService>;

/** The waitlist's background work: the sweep every minute (UTC, once across replicas) and the openings' jobs. */
export function defineWaitlistJobs(jobs: JobQueue, waitlist: Pick<WaitlistService, 'sweep' | 'notifyOpening'>): void {
  jobs.define({
    name: WAITLIST_SWEEP,
    cron: '* * * * *',
    retryLimit: 1,
    retryDelaySeconds: 10,
    expireInSeconds: 5 * 60,
    run: async () => void (await waitlist.sweep()),
  });
  jobs.define<{ productId: string }>({
    name: WAITLIST_OPENING,
    retryLimit: 5,
    retryDelaySeconds: 30,
    expireInSeconds: 10 * 60,
    run: async ({ productId }) => void (await waitlist.notifyOpening(productId)),
  });
}
