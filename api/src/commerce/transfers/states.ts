import type { Knex } from 'knex';
import type { ModelObject } from 'objection';
import { AppError } from '../../shared/errors';
import type { TransferState } from '../../shared/transfer-states';
import type { CommerceLimits } from '../checkout/limits';
import type { CommerceDeps } from '../deps';
import type { Purchase, PurchaseUserTransfer } from '../models';
import { DAY_MS } from '../../shared/durations';

/** What every step of a transfer is built from (passed by the composition root). */
export interface TransferDeps extends CommerceDeps {
  limits: Pick<CommerceLimits, 'transferOfferBy' | 'transferOfferTo'>;
}

export type TransferRow = ModelObject<PurchaseUserTransfer>;

/**
 * The purchase a transfer moves, with `upgraded` computed by the query (no column holds it): its credit paid for an
 * upgrade (docs/domain.md §5.3), so it keeps its content but is no longer anyone else's to take.
 */
export type PurchaseRow = Pick<
  Purchase,
  | 'id'
  | 'userId'
  | 'productId'
  | 'status'
  | 'createdAt'
  | 'bulkCouponId'
  | 'redeemedBulkCouponId'
  | 'merchantChargeId'
  | 'kind'
  | 'paidInFull'
  | 'paidInFullAt'
> & { upgraded: boolean };

/** States that expire when the window passes; a confirmed transfer completes in the same transaction. */
export const EXPIRING_STATES: readonly TransferState[] = ['AVAILABLE', 'INITIATED', 'VERIFIED'];

/**
 * When the purchase stops being transferable: its window counts from the purchase, or from its last instalment for
 * one bought in instalments (docs/domain.md §8, §23).
 */
export const windowEnd = (config: TransferDeps['config'], purchase: PurchaseRow): Date =>
  new Date(new Date(purchase.paidInFullAt ?? purchase.createdAt).getTime() + config.TRANSFER_WINDOW_DAYS * DAY_MS);

/**
 * Individual, paid-or-redeemed purchases that still grant access may be given away; team seats and teams may not,
 * nor a purchase whose credit paid for an upgrade, nor one still being paid in instalments. A comp was given to this
 * person for a reason of theirs: it is not theirs to pass on (support can still move it).
 */
export function transferable(purchase: PurchaseRow): boolean {
  return (
    purchase.status === 'Valid' &&
    purchase.paidInFull &&
    purchase.kind !== 'comp' &&
    !purchase.bulkCouponId &&
    !purchase.redeemedBulkCouponId &&
    !purchase.upgraded
  );
}

/** Refuses an action the transfer's state does not allow; an expired one says so. */
export function refuseUnless(transfer: TransferRow, states: readonly TransferState[], action: string): void {
  if (states.includes(transfer.transferState)) return;
  if (transfer.transferState === 'EXPIRED')
    throw new AppError('transfer-expired', 'The time to transfer this purchase has passed.');
  throw new AppError(
    'transfer-not-available',
    `This transfer is ${transfer.transferState.toLowerCase()}; it cannot be ${action}.`,
  );
}

export function mustBeRecipient(transfer: TransferRow, userId: string): void {
  if (transfer.targetUserId !== userId) {
    throw new AppError(
      'not-transfer-recipient',
      'This transfer was offered to another email address. Sign in with that address to accept it.',
    );
  }
}

export function mustBeOwner(purchase: PurchaseRow, userId: string | null, action: string): void {
  if (purchase.userId !== userId)
    throw new AppError('not-purchase-owner', `Only the owner of this purchase can ${action}.`);
}

/** Moves the transfer to another state (its row is locked by the caller). */
export async function move(
  trx: Knex.Transaction,
  transfer: TransferRow,
  to: TransferState,
  fields: Partial<TransferRow> = {},
): Promise<void> {
  await trx('purchaseUserTransfers')
    .where({ id: transfer.id })
    .update({ transferState: to, ...fields });
}
