import type { Db } from '../../db/connection';
import type { Logger } from '../../logger';
import type { Outbox } from '../../mail/outbox';
import type { PaymentProvider } from '../../payments/provider';

/** What refunds, disputes and bans are built from (the composition root passes them in). */
export interface LifecycleDeps {
  db: Db;
  logger: Logger;
  outbox: Outbox;
  provider: PaymentProvider;
}
