import { recordAudit } from '../../audit/record';
import { transferCompletedEmail } from '../../mail/templates';
import { AppError } from '../../shared/errors';
import type { TransferView } from '../schemas';
import { lockTransfer } from './locks';
import { moveOwnership, refuseIfHolding } from './ownership-move';
import { move, mustBeRecipient, refuseUnless, transferable, type TransferDeps } from './states';
import { transferView } from './view';

/** The recipient's side of a transfer (docs/domain.md §8): see the offer, be verified, accept it. */

/** What the recipient sees on the accept page (signing in there as the recipient verifies them). */
export async function transferForRecipient(
  { db, clock }: TransferDeps,
  userId: string,
  transferId: string,
): Promise<TransferView> {
  return db.transaction(async (trx) => {
    const { transfer } = await lockTransfer(trx, transferId, clock.now());
    mustBeRecipient(transfer, userId);
    return transferView(trx, transfer);
  });
}

/** INITIATED → VERIFIED: the recipient is signed in as the email the owner named. */
export async function verifyRecipient(
  { db, clock }: TransferDeps,
  userId: string,
  transferId: string,
): Promise<TransferView> {
  return db.transaction(async (trx) => {
    const { transfer } = await lockTransfer(trx, transferId, clock.now());
    mustBeRecipient(transfer, userId);
    if (transfer.transferState === 'VERIFIED') return transferView(trx, transfer);
    refuseUnless(transfer, ['INITIATED'], 'verified');
    await move(trx, transfer, 'VERIFIED');
    return transferView(trx, { ...transfer, transferState: 'VERIFIED' });
  });
}

/**
 * VERIFIED → CONFIRMED → COMPLETED in one transaction under the purchase lock: the recipient accepts and the
 * purchase becomes theirs; its charge, invoice and provider customer stay the payer's.
 */
export async function acceptTransfer(
  deps: TransferDeps,
  userId: string,
  transferId: string,
  requestId: string | null = null,
): Promise<TransferView> {
  const { db, clock, outbox } = deps;
  const view = await db.transaction(async (trx) => {
    const { transfer, purchase } = await lockTransfer(trx, transferId, clock.now());
    mustBeRecipient(transfer, userId);
    refuseUnless(transfer, ['VERIFIED'], 'accepted');
    if (!transferable(purchase))
      throw new AppError('transfer-not-available', 'This purchase can no longer be transferred.');
    // The recipient may have bought the course since the offer: one person never holds two copies. Fulfilment
    // locks the product, so a purchase of theirs being written now is waited for.
    await trx('products').where({ id: purchase.productId }).forUpdate().first('id');
    const owner = await trx('users').where({ id: purchase.userId }).first('id', 'email');
    const recipient = await trx('users').where({ id: userId }).first('id', 'email');
    await refuseIfHolding(trx, recipient, purchase.productId);
    const now = clock.now();
    await move(trx, transfer, 'CONFIRMED', { confirmedAt: now });
    await recordAudit(trx, {
      actor: recipient,
      action: 'transfer.confirmed',
      resource: 'purchase-user-transfers',
      recordId: transfer.id,
      requestId,
    });
    await moveOwnership(trx, purchase, userId);
    await move(trx, transfer, 'COMPLETED', { completedAt: now });
    await recordAudit(trx, {
      actor: recipient,
      action: 'transfer.completed',
      resource: 'purchases',
      recordId: purchase.id,
      before: { userId: owner.id, email: owner.email },
      after: { userId, email: recipient.email },
      requestId,
    });
    const product = await trx('products').where({ id: purchase.productId }).first('name');
    await outbox.enqueue(trx, transferCompletedEmail(owner.email, recipient.email, product.name));
    return transferView(trx, { ...transfer, transferState: 'COMPLETED', confirmedAt: now, completedAt: now });
  });
  outbox.flushInBackground();
  return view;
}
