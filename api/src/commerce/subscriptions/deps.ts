import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db/connection';
import type { Logger } from '../../logger';
import type { Outbox } from '../../mail/outbox';
import type { PaymentProvider } from '../../payments/provider';

/** What subscriptions' steps need. */
export interface SubscriptionDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'publicUrl' | 'DEFAULT_COUNTRY' | 'SUBSCRIPTION_GRACE_DAYS' | 'SUBSCRIPTION_RETRY_DAYS'>;
  provider: PaymentProvider;
  /** Dunning's emails (a failed renewal, a lapse). */
  outbox: Outbox;
  logger: Logger;
}
