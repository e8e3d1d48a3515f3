import type Stripe from 'stripe';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db/connection';
import type { Logger } from '../../logger';
import { DAY_MS } from '../../shared/durations';

export interface PayoutDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  config: Pick<Config, 'PAYOUT_HOLD_DAYS' | 'PAYOUT_MINIMUM_CENTS'>;
  /** The Stripe client when Stripe is configured: recipients with a connected account are paid by a transfer. */
  stripe: Stripe | null;
}

/** Lines written before this instant have passed the holding period. */
export const earnedBefore = ({ clock, config }: Pick<PayoutDeps, 'clock' | 'config'>): Date =>
  new Date(clock.now().getTime() - config.PAYOUT_HOLD_DAYS * DAY_MS);

/**
 * A line of `split_lines l` old enough to pay, with the holding period's end as `?`: past the holding period, or
 * negative (a refund or a lost dispute lowers what is payable at once, so nobody is paid money already given back).
 */
const PAST_HOLD = '(l.amount < 0 OR l.created_at < ?)';

/** The split lines a run may pay: a recipient's (never the platform's), covered by no payout yet, past the hold. */
export const PAYABLE_LINE = `l.user_id IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM payout_lines pl WHERE pl.split_line_id = l.id)
  AND ${PAST_HOLD}`;
