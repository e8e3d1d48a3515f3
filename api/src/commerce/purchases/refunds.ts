import type { Knex } from 'knex';
import type { Actor } from '../../audit/record';
import { refundEmail } from '../../mail/templates';
import { AppError } from '../../shared/errors';
import { formatMoney } from '../../shared/money';
import type { RefundReason } from '../../shared/refund-reasons';
import type { RefundResult } from '../schemas';
import type { LifecycleDeps } from './lifecycle-deps';
import { lockCharge, lockedPurchase } from './locks';
import { completeRefund, type RefundEmail } from './refund-completion';
import { refundReasonText } from './refund-reason-text';

export interface RefundInput {
  /** Cents; the whole remaining amount when left out. */
  amount?: number;
  reasonCode: RefundReason;
  /** The staff's note (required with 'other', which the schema checks). */
  reason?: string;
}

/**
 * Refunds part or all of what is left of a purchase's charge through its provider, in three steps so that no row lock
 * is held while the provider is called: reserve the amount (a pending refund, counted as taken), ask the provider,
 * then record the charge's refunded total as the provider reports it (it only grows, so a webhook arriving in between
 * changes nothing), or, when the provider holds it pending, wait for its event.
 */
export async function refundPurchase(
  deps: Pick<LifecycleDeps, 'db' | 'outbox' | 'provider'>,
  purchaseId: string,
  input: RefundInput,
  actor: Actor,
  requestId: string | null = null,
): Promise<RefundResult> {
  const reserved = await deps.db.transaction((trx) =>
    reserveRefund(trx, deps.provider.label, purchaseId, input, actor),
  );
  const emailOf: RefundEmail = async (trx, charge, result) => {
    const buyer = await trx('users').where({ id: charge.userId }).first('email');
    const product = await trx('products').where({ id: reserved.productId }).first('name');
    return refundEmail(buyer.email, product.name, formatMoney(reserved.amount, charge.currency), result.full);
  };
  const reason = refundReasonText(input.reasonCode, input.reason);
  const result = await completeRefund(
    deps,
    { id: reserved.id, chargeId: reserved.chargeId, reason },
    emailOf,
    actor,
    requestId,
  );
  return { ...result, amount: reserved.amount };
}

/**
 * Reserves a refund as a pending `merchantRefunds` row under the purchase's and charge's locks. Its idempotency key is
 * derived from the charge, what was refunded or reserved before and the amount, so a retried request refunds once; a
 * refund the provider failed adds to the key, so asking again is a new refund rather than a replay of the failure.
 */
async function reserveRefund(
  trx: Knex.Transaction,
  providerLabel: string,
  purchaseId: string,
  input: RefundInput,
  actor: Actor,
) {
  const purchase = await lockedPurchase(trx, purchaseId);
  if (!purchase.merchantChargeId) {
    throw new AppError(
      'refund-not-possible',
      'Nothing was paid for this purchase (a free redemption or a team seat), so there is nothing to refund.',
    );
  }
  // A spent upgrade credit (docs/domain.md §5.3): the upgrade bought with it is refunded first, or the credit
  // would be paid back twice.
  const upgrade = await trx('purchases')
    .where({ upgradedFromId: purchase.id })
    .whereNot({ status: 'Refunded' })
    .first('id');
  if (upgrade) {
    throw new AppError(
      'purchase-upgraded',
      'This purchase was used as credit for an upgrade; refund the upgrade first.',
    );
  }
  const reserved = await reserveChargeRefund(trx, providerLabel, purchase.merchantChargeId, input, actor, 'purchase');
  return { ...reserved, productId: purchase.productId };
}

/**
 * Reserves a refund of a charge (a purchase's, or a membership period's) as a pending `merchantRefunds` row under the
 * charge's lock; what it is of (`what`) names it in the refusals.
 */
export async function reserveChargeRefund(
  trx: Knex.Transaction,
  providerLabel: string,
  chargeId: string,
  input: RefundInput,
  actor: Actor,
  what: 'purchase' | 'period',
): Promise<{ id: string; chargeId: string; amount: number }> {
  const charge = await lockCharge(trx, chargeId);
  const [sum] = await trx('merchantRefunds')
    .where({ merchantChargeId: charge.id, status: 'pending' })
    .sum({ pending: 'amount' });
  const taken = charge.refundAmount + Number(sum?.pending ?? 0);
  const left = charge.amount - taken;
  if (left <= 0) {
    throw new AppError(
      'refund-not-possible',
      taken > charge.refundAmount
        ? `A refund of this ${what} is under way.`
        : `This ${what} has already been refunded in full.`,
    );
  }
  const amount = input.amount ?? left;
  if (amount > left) {
    const message = `is more than the ${formatMoney(left, charge.currency)} left to refund`;
    throw new AppError('refund-too-large', `The refund ${message}.`, { amount: message });
  }
  const account = await trx('merchantAccounts').where({ id: charge.merchantAccountId }).first('label');
  if (account.label !== providerLabel) {
    throw new AppError(
      'refund-not-possible',
      `This ${what} was paid through ${account.label}, which is not the payment provider configured now.`,
    );
  }
  const [failed] = await trx('merchantRefunds')
    .where({ merchantChargeId: charge.id, status: 'failed' })
    .whereNotNull('identifier')
    .count({ count: '*' });
  const again = Number(failed?.count ?? 0);
  const idempotencyKey = `refund-${charge.id}-${taken}-${amount}${again ? `-again-${again}` : ''}`;
  const why = { reasonCode: input.reasonCode, reason: input.reason ?? null };
  // A try that failed before the provider answered (unreachable, or its answer lost after it acted) has the same key:
  // it is tried again under it, and the provider replays what it did rather than refunding twice.
  const [row] = await trx('merchantRefunds')
    .insert({
      merchantAccountId: charge.merchantAccountId,
      merchantChargeId: charge.id,
      amount,
      ...why,
      idempotencyKey,
      requestedById: actor.id,
    })
    .onConflict('idempotencyKey')
    .merge({ status: 'pending', ...why, requestedById: actor.id })
    .where('merchantRefunds.status', 'failed')
    .returning('id');
  if (!row) throw new AppError('refund-not-possible', `A refund of this ${what} is under way.`);
  return { id: row.id as string, chargeId: charge.id, amount };
}
