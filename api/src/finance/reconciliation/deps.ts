import type { Clock } from '../../clock';
import type { Db } from '../../db/connection';
import type { Logger } from '../../logger';
import type { PaymentProvider } from '../../payments/provider';

/**
 * Commerce's own entry points, passed down by the composition root: a missed event found by reconciliation is
 * recovered through the same code as its webhook (docs/domain.md §20).
 */
export interface Recovery {
  /** Settles the checkout of a paid provider session, as `checkout.session.completed` does. */
  settleSession(sessionIdentifier: string): Promise<unknown>;
  /** A refund made at the provider, recorded as `charge.refunded` would (its total read under the charge's lock). */
  refundedAtProvider(
    accountId: string,
    chargeIdentifier: string,
    amount: number,
    refundIdentifier: string,
  ): Promise<void>;
  /** A dispute's withdrawal at the provider (with its fee), as `charge.dispute.created` says it. */
  disputeOpened(
    accountId: string,
    dispute: { identifier: string; chargeIdentifier: string; amount: number; reason: string | null; fee: number },
  ): Promise<void>;
}

export interface ReconciliationDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  provider: PaymentProvider;
  recovery: Recovery;
}

/** A period [from, to) of the processor's time. */
export interface Period {
  from: Date;
  to: Date;
}
