import type { JobQueue } from '../../jobs/queue';
import { bindDeps } from '../../shared/bind-deps';
import type { ReconciliationDeps } from './deps';
import { importPeriod } from './import';
import { recoverTransaction } from './recover';
import { payoutsOf, reconciliationOf } from './report';

export const DAILY_RECONCILIATION_IMPORT = 'daily-reconciliation-import';

/** How far back the daily import reads: late payouts and fees changed after the fact are picked up again. */
const DAILY_LOOKBACK_DAYS = 7;

/**
 * Reconciliation (docs/domain.md §20): what the processor says happened, imported and matched to the books to the
 * cent, the exceptions with their reasons, and a missed event recovered through its webhook's own code.
 */
export function reconciliationService(deps: ReconciliationDeps) {
  const bound = bindDeps(deps);
  return {
    import: bound(importPeriod),
    report: bound(reconciliationOf),
    payouts: bound(payoutsOf),
    recover: bound(recoverTransaction),
  };
}

export type ReconciliationService = ReturnType<typeof reconciliationService>;

/** The import every day at 05:00 UTC of the last week, once across every replica (the queue adds one job a day). */
export function defineReconciliationJobs(
  jobs: JobQueue,
  reconciliation: ReconciliationService,
  deps: Pick<ReconciliationDeps, 'clock' | 'provider'>,
): void {
  if (!deps.provider.ledger) return;
  jobs.define({
    name: DAILY_RECONCILIATION_IMPORT,
    cron: '0 5 * * *',
    retryLimit: 2,
    retryDelaySeconds: 15 * 60,
    expireInSeconds: 60 * 60,
    run: async () => {
      const to = deps.clock.now();
      const from = new Date(to.getTime() - DAILY_LOOKBACK_DAYS * 24 * 60 * 60 * 1000);
      await reconciliation.import({ from, to });
    },
  });
}
