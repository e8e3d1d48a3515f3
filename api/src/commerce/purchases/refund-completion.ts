import type { Knex } from 'knex';
import { SYSTEM_ACTOR, type Actor } from '../../audit/record';
import type { NewEmail } from '../../mail/outbox';
import type { ProviderRefund } from '../../payments/provider';
import type { LifecycleDeps } from './lifecycle-deps';
import { lockCharge, type ChargeRow } from './locks';
import { applyRefundTotal, countableTotal } from './refund-total';

/** The email that tells the buyer about a refund, written once the provider confirmed it (or accepted it, pending). */
export type RefundEmail = (
  trx: Knex.Transaction,
  charge: ChargeRow,
  result: { refundAmount: number; full: boolean },
) => Promise<NewEmail>;

/** What the processor settled for a refund (docs/domain.md §20), as its columns; none when it did not tell. */
const settlementColumns = ({ settlement }: ProviderRefund) =>
  settlement
    ? {
        settlementIdentifier: settlement.identifier,
        settlementAmount: settlement.amount,
        settlementCurrency: settlement.currency,
        settlementExchangeRate: settlement.exchangeRate,
      }
    : {};

/** A refund reserved as a pending `merchantRefunds` row, and its reason in words. */
export interface ReservedRefund {
  id: string;
  chargeId: string;
  reason: string;
}

/** Where a refund stands once the provider answered: `pending` until its event settles it (refund-settlement.ts). */
export interface RefundOutcome {
  refundAmount: number;
  full: boolean;
  pending?: true;
}

/**
 * Asks the provider for a reserved refund (its key makes a repeat replay, not refund twice), outside any
 * transaction, then records the charge's refunded total as the provider reports it and emails the buyer, once: only
 * the call that moves the row to succeeded sends. Retrying a pending or failed row is safe for the same reason. A
 * provider that answers `pending` keeps the reservation (still counted as taken) with its id and the email to send
 * once the provider's event says it succeeded.
 */
export async function completeRefund(
  { db, outbox, provider }: Pick<LifecycleDeps, 'db' | 'outbox' | 'provider'>,
  reserved: ReservedRefund,
  emailOf: RefundEmail,
  actor: Actor = SYSTEM_ACTOR,
  requestId: string | null = null,
): Promise<RefundOutcome> {
  const row = await db('merchantRefunds as r')
    .join('merchantCharges as c', 'c.id', 'r.merchantChargeId')
    .where('r.id', reserved.id)
    .first('r.amount', 'r.idempotencyKey', 'r.reasonCode', 'c.identifier as chargeIdentifier');
  let refund: ProviderRefund;
  try {
    refund = await provider.refund({
      chargeIdentifier: row.chargeIdentifier,
      amount: row.amount,
      idempotencyKey: row.idempotencyKey,
      reason: reserved.reason,
      reasonCode: row.reasonCode,
    });
  } catch (error) {
    await db('merchantRefunds').where({ id: reserved.id, status: 'pending' }).update({ status: 'failed' });
    throw error;
  }
  const answered = refund;
  const outcome = await db.transaction(async (trx) => {
    const charge = await lockCharge(trx, reserved.chargeId);
    if (answered.status === 'pending') return awaitSettlement(trx, charge, reserved.id, answered, row.amount, emailOf);
    const moved = await trx('merchantRefunds')
      .where({ id: reserved.id })
      .whereNot({ status: 'succeeded' })
      .update({ status: 'succeeded', identifier: answered.identifier, ...settlementColumns(answered) });
    const total = await countableTotal(trx, charge.id, answered.refundedTotal, reserved.id);
    const result = await applyRefundTotal(trx, charge, total, reserved.reason, actor, requestId, row.reasonCode);
    if (moved) await outbox.enqueue(trx, await emailOf(trx, charge, result));
    return result;
  });
  outbox.flushInBackground();
  return outcome;
}

/**
 * A refund the provider holds pending: its row stays pending (the amount stays taken) with the provider's id and the
 * email for its success. A settlement that got here first (the row no longer pending) already decided it.
 */
async function awaitSettlement(
  trx: Knex.Transaction,
  charge: ChargeRow,
  refundId: string,
  refund: ProviderRefund,
  amount: number,
  emailOf: RefundEmail,
): Promise<RefundOutcome> {
  const expected = Math.min(charge.amount, charge.refundAmount + amount);
  const email = await emailOf(trx, charge, { refundAmount: expected, full: expected >= charge.amount });
  await trx('merchantRefunds')
    .where({ id: refundId, status: 'pending' })
    .update({ identifier: refund.identifier, emailOnSuccess: JSON.stringify(email), ...settlementColumns(refund) });
  return { refundAmount: charge.refundAmount, full: charge.refundAmount >= charge.amount, pending: true };
}
