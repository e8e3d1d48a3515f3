import type { Logger } from './logger';
import type { Services } from './services';

const EMAIL_RETRY_EVERY_MS = 15_000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;
const EXPIRE_TRANSFERS_EVERY_MS = 60 * 1000;
const EXPIRE_CHECKOUTS_EVERY_MS = 60 * 1000;

/**
 * Work that runs beside the requests: retrying due emails (failures back off in the outbox), pruning
 * expired credentials, rate-limit windows and the bodies of emails past their retention, expiring transfers whose window passed,
 * and ending checkouts left unpaid past their time (their reserved coupon uses come back). Returns a stop function that
 * waits for a run in progress.
 */
export function startBackgroundWork(
  services: Pick<Services, 'outbox' | 'prune' | 'transfers' | 'checkouts'>,
  logger: Logger,
): () => Promise<void> {
  services.outbox.flushInBackground(); // emails left pending by an earlier run
  const retry = setInterval(() => services.outbox.flushInBackground(), EMAIL_RETRY_EVERY_MS);
  const prune = setInterval(() => {
    services.prune().then(
      (counts) => logger.debug({ pruned: counts }, 'pruned expired credentials'),
      (error) => logger.warn({ err: error }, 'pruning expired credentials failed'),
    );
  }, PRUNE_EVERY_MS);
  // Every read applies expiry too; the sweep keeps the console's list of transfers true.
  const expire = setInterval(() => {
    services.transfers.expire().catch((error: unknown) => logger.warn({ err: error }, 'expiring transfers failed'));
  }, EXPIRE_TRANSFERS_EVERY_MS);
  const expireCheckouts = setInterval(() => {
    services.checkouts
      .expireAbandoned()
      .catch((error: unknown) => logger.warn({ err: error }, 'expiring checkouts failed'));
  }, EXPIRE_CHECKOUTS_EVERY_MS);
  retry.unref();
  prune.unref();
  expire.unref();
  expireCheckouts.unref();
  return async () => {
    clearInterval(retry);
    clearInterval(prune);
    clearInterval(expire);
    clearInterval(expireCheckouts);
    await services.outbox.flush().catch(() => undefined);
  };
}
