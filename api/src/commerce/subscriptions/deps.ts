import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db/connection';
import type { PaymentProvider } from '../../payments/provider';

/** What subscriptions' steps need. */
export interface SubscriptionDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'publicUrl' | 'DEFAULT_COUNTRY' | 'SUBSCRIPTION_GRACE_DAYS'>;
  provider: PaymentProvider;
}
