import type { Knex } from 'knex';
import { AppError } from '../../shared/errors';
import { OPEN_TRANSFER_STATES } from '../../shared/transfer-states';
import {
  EXPIRING_STATES,
  transferable,
  windowEnd,
  type PurchaseRow,
  type TransferDeps,
  type TransferRow,
} from './states';

/**
 * Every move locks the purchase row first, as refunds, disputes and bans do, so a transfer racing any of them ends in
 * one consistent state (docs/domain.md §8). Expiry is applied before every read and by a sweep.
 */
export async function lockPurchase(trx: Knex.Transaction, purchaseId: string): Promise<PurchaseRow> {
  // An upgrade's fulfilment locks its source row too, so `upgraded` cannot change while this lock is held.
  const purchase = (await trx('purchases')
    .where({ id: purchaseId })
    .forUpdate()
    .first(
      'purchases.*',
      trx.raw('exists (select 1 from purchases as u where u.upgraded_from_id = purchases.id) as upgraded'),
    )) as PurchaseRow | undefined;
  if (!purchase) throw new AppError('transfer-not-found', 'No such purchase.');
  return purchase;
}

/** Moves open transfers whose window passed to EXPIRED (for one purchase, or all). */
export async function expire(trx: Knex | Knex.Transaction, now: Date, purchaseId?: string): Promise<number> {
  const query = trx('purchaseUserTransfers').whereIn('transferState', EXPIRING_STATES).where('expiresAt', '<=', now);
  if (purchaseId) query.where({ purchaseId });
  return query.update({ transferState: 'EXPIRED' });
}

/** Locks the transfer's purchase and then the transfer, after applying expiry. */
export async function lockTransfer(
  trx: Knex.Transaction,
  transferId: string,
  now: Date,
): Promise<{ transfer: TransferRow; purchase: PurchaseRow }> {
  const found = (await trx('purchaseUserTransfers').where({ id: transferId }).first('purchaseId')) as
    { purchaseId: string } | undefined;
  if (!found) throw new AppError('transfer-not-found', 'No such transfer.');
  const purchase = await lockPurchase(trx, found.purchaseId);
  await expire(trx, now, purchase.id);
  const transfer = (await trx('purchaseUserTransfers').where({ id: transferId }).forUpdate().first()) as TransferRow;
  return { transfer, purchase };
}

/** The purchase's transfer under way, opening the AVAILABLE one when the purchase may still be given away. */
export async function currentTransfer(
  { clock, config }: Pick<TransferDeps, 'clock' | 'config'>,
  trx: Knex.Transaction,
  purchase: PurchaseRow,
): Promise<TransferRow | null> {
  await expire(trx, clock.now(), purchase.id);
  const open = (await trx('purchaseUserTransfers')
    .where({ purchaseId: purchase.id })
    .whereIn('transferState', OPEN_TRANSFER_STATES)
    .first()) as TransferRow | undefined;
  if (open) return open;
  if (!transferable(purchase) || windowEnd(config, purchase) <= clock.now()) return null;
  // Given away once: a completed transfer, or a window that expired, closes the purchase for good.
  const ended = await trx('purchaseUserTransfers')
    .where({ purchaseId: purchase.id })
    .whereIn('transferState', ['COMPLETED', 'EXPIRED'])
    .first('id');
  if (ended) return null;
  const [row] = await trx('purchaseUserTransfers')
    .insert({
      purchaseId: purchase.id,
      sourceUserId: purchase.userId,
      transferState: 'AVAILABLE',
      expiresAt: windowEnd(config, purchase),
    })
    .returning('*');
  return row as TransferRow;
}
