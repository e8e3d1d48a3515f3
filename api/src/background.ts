import type { Logger } from './logger';
import type { Services } from './services';

const EMAIL_RETRY_EVERY_MS = 15_000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * Work that runs beside the requests: retrying due emails (failures back off in the outbox) and pruning
 * expired credentials and rate-limit windows. Returns a stop function that waits for a run in progress.
 */
export function startBackgroundWork(services: Pick<Services, 'outbox' | 'prune'>, logger: Logger): () => Promise<void> {
  services.outbox.flushInBackground(); // emails left pending by an earlier run
  const retry = setInterval(() => services.outbox.flushInBackground(), EMAIL_RETRY_EVERY_MS);
  const prune = setInterval(() => {
    services.prune().then(
      (counts) => logger.debug({ pruned: counts }, 'pruned expired credentials'),
      (error) => logger.warn({ err: error }, 'pruning expired credentials failed'),
    );
  }, PRUNE_EVERY_MS);
  retry.unref();
  prune.unref();
  return async () => {
    clearInterval(retry);
    clearInterval(prune);
    await services.outbox.flush().catch(() => undefined);
  };
}
