import type { Knex } from 'knex';
import { recordAudit, type Actor } from '../../audit/record';
import { ledger } from '../../finance/ledger';
import { issueCreditNote } from '../../invoices/issue';
import { taxRefunded } from '../../tax/amounts';
import type { RefundReason } from '../../shared/refund-reasons';
import { endAccess } from './end-access';
import { purchasesOfCharge, type ChargeRow } from './locks';
import { moveStatus } from './status-edges';

/**
 * The refunded total of a charge we may record: what the provider reports (which counts refunds it still holds
 * pending), less our refunds still pending there, since one of them may yet fail (docs/domain.md §6.4); never less
 * than the refunds recorded as succeeded. `reported` is null when the provider said nothing of the charge's total.
 */
export async function countableTotal(
  trx: Knex.Transaction,
  chargeId: string,
  reported: number | null,
  except: string | null = null,
): Promise<number> {
  const sums = (await trx('merchantRefunds')
    .where({ merchantChargeId: chargeId })
    .first(
      trx.raw(
        `coalesce(sum(amount) filter (where status = 'pending' and identifier is not null and id::text is distinct from ?), 0)::int as held`,
        [except],
      ),
      trx.raw(`coalesce(sum(amount) filter (where status = 'succeeded'), 0)::int as succeeded`),
    )) as { held: number; succeeded: number };
  return Math.max(reported === null ? 0 : reported - sums.held, sums.succeeded);
}

/** Records a refund's total as the provider reports it: it only grows, and a full one ends access. */
export async function applyRefundTotal(
  trx: Knex.Transaction,
  charge: ChargeRow,
  refunded: number,
  reason: string,
  actor: Actor,
  requestId: string | null,
  reasonCode: RefundReason | null = null,
) {
  const total = Math.min(charge.amount, Math.max(charge.refundAmount, refunded));
  if (total !== charge.refundAmount) {
    // The tax goes back in proportion to the running total (all of it once refunded in full); the ledger takes
    // revenue, so the adjustment is the refund net of its tax. The credit note says both.
    const refundedTax = taxRefunded(total, charge.amount, charge.taxAmount);
    const taxBack = refundedTax - taxRefunded(charge.refundAmount, charge.amount, charge.taxAmount);
    await trx('merchantCharges').where({ id: charge.id }).update({ refundAmount: total, refundedTax });
    const revenue = total - charge.refundAmount - taxBack;
    await ledger.recordAdjustment(trx, charge.id, -revenue, 'refund', `refunded-to-${total}`);
    await issueCreditNote(trx, charge.id, total);
  }
  const full = total >= charge.amount;
  for (const purchase of await purchasesOfCharge(trx, charge.id)) {
    const moved = full && (await moveStatus(trx, purchase.id, 'Refunded', reason));
    if (moved) await endAccess(trx, purchase, 'Refunded', null);
    if (total !== charge.refundAmount || moved) {
      await recordAudit(trx, {
        actor,
        action: full ? 'purchase.refunded' : 'purchase.partially-refunded',
        resource: 'purchases',
        recordId: purchase.id,
        before: { status: purchase.status, refundAmount: charge.refundAmount },
        after: { status: moved ? 'Refunded' : purchase.status, refundAmount: total, reason, reasonCode },
        requestId,
      });
    }
  }
  return { refundAmount: total, full };
}
