import type { Knex } from 'knex';
import { AppError } from '../../shared/errors';
import type { TransferPreview, TransferView } from '../schemas';
import type { TransferDeps, TransferRow } from './states';

/** A transfer as both its owner and its recipient see it. */
export async function transferView(trx: Knex | Knex.Transaction, transfer: TransferRow): Promise<TransferView> {
  // One statement at a time: `trx` may be a transaction, whose one connection runs one at a time.
  const purchase = await trx('purchases as p')
    .join('products as pr', 'pr.id', 'p.productId')
    .where('p.id', transfer.purchaseId)
    .first('pr.name as productName', 'pr.id as productId', 'pr.slug as productSlug');
  const source = await trx('users').where({ id: transfer.sourceUserId }).first('email');
  const target = transfer.targetUserId ? await trx('users').where({ id: transfer.targetUserId }).first('email') : null;
  return {
    id: transfer.id,
    state: transfer.transferState,
    purchaseId: transfer.purchaseId,
    product: { id: purchase.productId, name: purchase.productName, slug: purchase.productSlug as string | null },
    ownerEmail: source.email as string,
    recipientEmail: target?.email ?? null,
    expiresAt: transfer.expiresAt,
    createdAt: transfer.createdAt,
    confirmedAt: transfer.confirmedAt,
    completedAt: transfer.completedAt,
  };
}

/**
 * What the sign-in page says to a signed-out visitor who followed an offer's link: the course, from whom, and the
 * address to sign in with. Only an offer still open to accept answers; any other is `transfer-not-found`, so an
 * old link tells nothing. The link itself was emailed to that address.
 */
export async function previewOffer(
  { db, clock }: Pick<TransferDeps, 'db' | 'clock'>,
  transferId: string,
): Promise<TransferPreview> {
  const row = await db('purchaseUserTransfers as t')
    .join('purchases as p', 'p.id', 't.purchaseId')
    .join('products as pr', 'pr.id', 'p.productId')
    .join('users as s', 's.id', 't.sourceUserId')
    .join('users as r', 'r.id', 't.targetUserId')
    .where('t.id', transferId)
    .whereIn('t.transferState', ['INITIATED', 'VERIFIED'])
    .where('t.expiresAt', '>', clock.now())
    .first('pr.name as productName', 's.name as ownerName', 's.email as ownerEmail', 'r.email as recipientEmail');
  if (!row) throw new AppError('transfer-not-found', 'No such offer, or it can no longer be accepted.');
  return {
    product: { name: row.productName },
    from: row.ownerName || row.ownerEmail,
    recipientEmail: row.recipientEmail,
  };
}
