import type { Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db/connection';
import type { Logger } from '../logger';
import type { Outbox } from '../mail/outbox';
import type { PaymentProvider } from '../payments/provider';

/** What the services that sell purchases and give them away are built from (passed by the composition root). */
export interface CommerceDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'publicUrl' | 'TRANSFER_WINDOW_DAYS'>;
  logger: Logger;
  outbox: Outbox;
  provider: PaymentProvider;
}
