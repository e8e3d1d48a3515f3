import { recordAudit, type Actor } from '../../audit/record';
import { findOrCreateUserByEmail } from '../../identity/profile/users';
import { purchaseReceivedEmail, transferCompletedEmail } from '../../mail/templates';
import { AppError } from '../../shared/errors';
import { OPEN_TRANSFER_STATES } from '../../shared/transfer-states';
import { GRANTING_STATUSES } from '../models';
import type { TransferView } from '../schemas';
import { lockPurchase } from './locks';
import { moveOwnership, refuseIfHolding } from './ownership-move';
import type { TransferDeps, TransferRow } from './states';
import { transferView } from './view';
import { mustBePaidInFull } from '../payment-plans/plans';

/**
 * Support moves a purchase to another email directly (a buyer who typed the wrong address): recorded as a
 * COMPLETED transfer, whatever the window, and in the audit log.
 */
export async function moveBySupport(
  deps: TransferDeps,
  actor: Actor,
  purchaseId: string,
  recipientEmail: string,
  requestId: string | null = null,
): Promise<TransferView> {
  const { db, clock, config, outbox } = deps;
  const view = await db.transaction(async (trx) => {
    const purchase = await lockPurchase(trx, purchaseId);
    if (purchase.bulkCouponId || purchase.redeemedBulkCouponId) {
      throw new AppError(
        'transfer-not-available',
        'Team purchases and team seats are not moved this way; manage the team instead.',
      );
    }
    if (!(GRANTING_STATUSES as readonly string[]).includes(purchase.status))
      throw new AppError('transfer-not-available', `A ${purchase.status.toLowerCase()} purchase cannot be moved.`);
    mustBePaidInFull(purchase);
    if (purchase.upgraded)
      throw new AppError('purchase-upgraded', 'This purchase paid for an upgrade as credit; it stays with its owner.');
    const owner = await trx('users').where({ id: purchase.userId }).first('id', 'email');
    if (owner.email.toLowerCase() === recipientEmail.toLowerCase())
      throw new AppError('validation-failed', 'This purchase already belongs to that address.', {
        email: 'is the current owner',
      });
    await trx('products').where({ id: purchase.productId }).forUpdate().first('id'); // as accepting does
    const recipient = await findOrCreateUserByEmail(trx, recipientEmail, { verified: false });
    await refuseIfHolding(trx, recipient, purchase.productId);
    const now = clock.now();
    await trx('purchaseUserTransfers')
      .where({ purchaseId })
      .whereIn('transferState', OPEN_TRANSFER_STATES)
      .update({ transferState: 'CANCELED', canceledAt: now });
    const [row] = await trx('purchaseUserTransfers')
      .insert({
        purchaseId,
        sourceUserId: owner.id,
        targetUserId: recipient.id,
        transferState: 'COMPLETED',
        expiresAt: now,
        confirmedAt: now,
        completedAt: now,
        bySupport: true,
      })
      .returning('*');
    await moveOwnership(trx, purchase, recipient.id);
    await recordAudit(trx, {
      actor,
      action: 'transfer.moved-by-support',
      resource: 'purchases',
      recordId: purchaseId,
      before: { userId: owner.id, email: owner.email },
      after: { userId: recipient.id, email: recipient.email },
      requestId,
    });
    // Both people hear of it: the new owner so they can sign in, the old one so it is no surprise.
    const product = await trx('products').where({ id: purchase.productId }).first('name');
    await outbox.enqueue(
      trx,
      purchaseReceivedEmail(recipient.email, product.name, new URL('/purchases', config.publicUrl).toString()),
    );
    await outbox.enqueue(trx, transferCompletedEmail(owner.email, recipient.email, product.name));
    return transferView(trx, row as TransferRow);
  });
  outbox.flushInBackground();
  return view;
}
