import type { Config } from '../../config';
import type { Db } from '../../db/connection';
import type { PayoutService } from '../payouts/payouts';

export interface EarningsDeps {
  db: Db;
  config: Pick<Config, 'PAYOUT_HOLD_DAYS'>;
  /** The balances come from the payouts' computation, never a second one. */
  payouts: Pick<PayoutService, 'balances'>;
}
