import { table } from '../../db/base-model';
import type { PayoutMethod, PayoutStatus } from '../../shared/payouts';

/** Money sent to one revenue-split recipient in one currency, covering the split lines linked to it. */
export class Payout extends table('payouts') {
  declare id: string;
  declare runId: string;
  declare recipientId: string;
  declare currency: string;
  declare amount: number;
  declare method: PayoutMethod;
  declare status: PayoutStatus;
  declare reference: string | null;
  declare error: string | null;
  /** Set while a run sends it through Stripe (see send.ts). */
  declare sendingSince: Date | null;
  declare idempotencyKey: string;
  declare paidAt: Date | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}

/** A recipient paid through Stripe Connect: their connected account. */
export class PayoutRecipient extends table('payoutRecipients') {
  declare id: string;
  declare userId: string;
  declare stripeAccountId: string;
  declare createdAt: Date;
  declare updatedAt: Date;
}

/** One payout run: who started it (none for the monthly job) and the holding period's end it paid up to. */
export class PayoutRun extends table('payoutRuns') {
  declare id: string;
  declare startedById: string | null;
  declare startedByEmail: string | null;
  declare earnedBefore: Date;
  declare createdAt: Date;
}

/** A split line a payout covers (each line at most once). */
export class PayoutLine extends table('payoutLines', { idColumn: 'splitLineId' }) {
  declare splitLineId: string;
  declare payoutId: string;
}
