import type { JobQueue } from '../../jobs/queue';
import { SYSTEM_ACTOR } from '../../audit/record';
import { bindDeps } from '../../shared/bind-deps';
import { balances } from './balances';
import type { PayoutDeps } from './deps';
import { markPaid } from './mark-paid';
import { runPayouts } from './run';

export const MONTHLY_PAYOUT_RUN = 'monthly-payout-run';

/**
 * Paying revenue-split recipients (docs/domain.md §19): their balances from the ledger, payout runs, and manual
 * payouts marked paid. The console's list of payouts is a generic resource (admin/resources/finance.ts).
 */
export function payoutService(deps: PayoutDeps) {
  const bound = bindDeps(deps);
  return {
    balances: bound(balances),
    run: bound(runPayouts),
    markPaid: bound(markPaid),
  };
}

export type PayoutService = ReturnType<typeof payoutService>;

/** A run on the first of every month at 06:00 UTC, once across every replica (the queue adds one job a period). */
export function definePayoutJobs(jobs: JobQueue, payouts: PayoutService): void {
  jobs.define({
    name: MONTHLY_PAYOUT_RUN,
    cron: '0 6 1 * *',
    retryLimit: 1,
    retryDelaySeconds: 15 * 60,
    expireInSeconds: 60 * 60,
    run: async () => void (await payouts.run(SYSTEM_ACTOR, null)),
  });
}
