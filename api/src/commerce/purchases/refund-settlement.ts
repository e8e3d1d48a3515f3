import type { Knex } from 'knex';
import { recordAudit, SYSTEM_ACTOR } from '../../audit/record';
import type { NewEmail } from '../../mail/outbox';
import type { RefundSettlement } from '../../payments/provider';
import type { RefundReason } from '../../shared/refund-reasons';
import type { LifecycleDeps } from './lifecycle-deps';
import { lockCharge, purchasesOfCharge, type ChargeRow } from './locks';
import { refundReasonText } from './refund-reason-text';
import { applyRefundTotal, countableTotal } from './refund-total';

interface PendingRefund {
  id: string;
  status: 'pending' | 'succeeded' | 'failed';
  identifier: string;
  amount: number;
  reasonCode: RefundReason | null;
  reason: string | null;
  emailOnSuccess: NewEmail | null;
}

/**
 * The provider's word on a refund it answered `pending` (docs/domain.md §6.4). Succeeded: recorded as a refund that
 * succeeded at once is (its total, the purchase's status, the ledger, the buyer's email after commit). Failed: the
 * reservation is released and staff are told why in the audit log. Only the first word on a pending refund counts,
 * under the charge's lock, so repeated or reordered events never record anything twice.
 */
export async function refundSettled(
  { db, logger, outbox }: Pick<LifecycleDeps, 'db' | 'logger' | 'outbox'>,
  accountId: string,
  settlement: RefundSettlement,
): Promise<void> {
  const emailed = await db.transaction(async (trx) => {
    const known = await trx('merchantRefunds')
      .where({ merchantAccountId: accountId, identifier: settlement.identifier })
      .first('id', 'merchantChargeId');
    if (!known) {
      const asking =
        settlement.idempotencyKey &&
        (await trx('merchantRefunds')
          .where({ merchantAccountId: accountId, idempotencyKey: settlement.idempotencyKey, status: 'pending' })
          .first('id'));
      // Our request's answer has not been recorded yet: refused, so that the provider delivers the event again.
      if (asking) throw new Error(`refund ${settlement.identifier} settled before its request was answered; retry`);
      logger.info({ refund: settlement.identifier }, 'settlement of a refund that is not ours; ignored');
      return false;
    }
    const charge = await lockCharge(trx, known.merchantChargeId);
    const refund = (await trx('merchantRefunds').where({ id: known.id }).first()) as PendingRefund;
    if (refund.status !== 'pending') return false;
    if (settlement.outcome === 'failed') {
      await releaseFailed(trx, charge, refund, settlement.failureReason ?? null);
      return false;
    }
    await trx('merchantRefunds').where({ id: refund.id }).update({ status: 'succeeded', emailOnSuccess: null });
    const reason = refund.reasonCode
      ? refundReasonText(refund.reasonCode, refund.reason)
      : (refund.reason ?? 'Refunded');
    const total = await countableTotal(trx, charge.id, null);
    await applyRefundTotal(trx, charge, total, reason, SYSTEM_ACTOR, null, refund.reasonCode);
    if (refund.emailOnSuccess) await outbox.enqueue(trx, refund.emailOnSuccess);
    return Boolean(refund.emailOnSuccess);
  });
  if (emailed) outbox.flushInBackground();
}

/** A pending refund the provider failed: no longer counted as taken, and the failure audited where staff look. */
async function releaseFailed(
  trx: Knex.Transaction,
  charge: ChargeRow,
  refund: PendingRefund,
  failureReason: string | null,
): Promise<void> {
  await trx('merchantRefunds')
    .where({ id: refund.id })
    .update({ status: 'failed', failureReason, emailOnSuccess: null });
  const purchases = await purchasesOfCharge(trx, charge.id);
  const entry = {
    actor: SYSTEM_ACTOR,
    action: 'purchase.refund-failed' as const,
    before: { refund: refund.identifier, status: 'pending' },
    after: { refund: refund.identifier, status: 'failed', amount: refund.amount, reason: failureReason },
  };
  // A refund of a payment that never became a purchase (docs/domain.md §6.2) is audited under the refund itself.
  if (purchases.length === 0) await recordAudit(trx, { ...entry, resource: 'merchantRefunds', recordId: refund.id });
  for (const purchase of purchases) await recordAudit(trx, { ...entry, resource: 'purchases', recordId: purchase.id });
}
