import { recordAudit, type Actor } from '../../audit/record';
import { timeZoneOf } from '../../identity/profile/prefs';
import { findOrCreateUserByEmail } from '../../identity/profile/users';
import { transferOfferEmail } from '../../mail/templates';
import { AppError } from '../../shared/errors';
import { CANCELABLE_TRANSFER_STATES } from '../../shared/transfer-states';
import type { TransferView } from '../schemas';
import { currentTransfer, lockPurchase, lockTransfer } from './locks';
import { refuseIfHolding } from './ownership-move';
import { mustBePaidInFull } from '../payment-plans/plans';
import {
  move,
  mustBeOwner,
  refuseUnless,
  transferable,
  windowEnd,
  type TransferDeps,
  type TransferRow,
} from './states';
import { transferView } from './view';

/** The owner's side of a transfer (docs/domain.md §8): see it, offer it to someone, take the offer back. */

/** The owner's view of a purchase's transfer: the one under way, or null when it cannot be given away. */
export async function transferForOwner(
  deps: TransferDeps,
  ownerId: string,
  purchaseId: string,
): Promise<TransferView | null> {
  return deps.db.transaction(async (trx) => {
    const purchase = await lockPurchase(trx, purchaseId);
    mustBeOwner(purchase, ownerId, 'transfer it');
    const transfer = await currentTransfer(deps, trx, purchase);
    return transfer && transferView(trx, transfer);
  });
}

/**
 * AVAILABLE → INITIATED: the owner names the recipient, who is emailed a link to the accept page. Offers are
 * counted per owner first and per recipient address once the purchase is known to be theirs: cancel and offer
 * again cannot mail anyone at will, and nobody can use up an address's offers with purchases not theirs.
 */
export async function offerTransfer(
  deps: TransferDeps,
  ownerId: string,
  purchaseId: string,
  recipientEmail: string,
  requestId: string | null = null,
): Promise<TransferView> {
  const { db, clock, config, outbox, limits } = deps;
  await limits.transferOfferBy(ownerId);
  const result = await db.transaction(async (trx) => {
    const purchase = await lockPurchase(trx, purchaseId);
    mustBeOwner(purchase, ownerId, 'transfer it');
    await limits.transferOfferTo(recipientEmail, trx);
    const transfer = await currentTransfer(deps, trx, purchase);
    if (!transfer) {
      mustBePaidInFull(purchase);
      const expired = await trx('purchaseUserTransfers').where({ purchaseId, transferState: 'EXPIRED' }).first('id');
      if (expired || (transferable(purchase) && windowEnd(config, purchase) <= clock.now()))
        throw new AppError('transfer-expired', 'The time to transfer this purchase has passed.');
      throw new AppError(
        'transfer-not-available',
        'This purchase cannot be transferred (only a valid individual purchase can, once).',
      );
    }
    refuseUnless(transfer, ['AVAILABLE'], 'offered to someone');
    const owner = await trx('users').where({ id: ownerId }).first('email');
    if (owner.email.toLowerCase() === recipientEmail.toLowerCase()) {
      throw new AppError('validation-failed', 'Name someone else: this purchase is already yours.', {
        email: 'is your own address',
      });
    }
    const recipient = await findOrCreateUserByEmail(trx, recipientEmail, { verified: false });
    await refuseIfHolding(trx, recipient, purchase.productId);
    await move(trx, transfer, 'INITIATED', { targetUserId: recipient.id });
    const product = await trx('products').where({ id: purchase.productId }).first('name');
    // The offer's end in the recipient's own time zone when their settings name one (else UTC, said so).
    const zone = await timeZoneOf(trx, recipient.id);
    const url = new URL(`/transfers/${transfer.id}`, config.publicUrl).toString();
    const offer = transferOfferEmail(recipient.email, owner.email, product.name, url, transfer.expiresAt, zone);
    await outbox.enqueue(trx, offer);
    await recordAudit(trx, {
      actor: { id: ownerId, email: owner.email },
      action: 'transfer.initiated',
      resource: 'purchase-user-transfers',
      recordId: transfer.id,
      after: { recipient: recipient.email },
      requestId,
    });
    return transferView(trx, { ...transfer, transferState: 'INITIATED', targetUserId: recipient.id });
  });
  outbox.flushInBackground();
  return result;
}

/** INITIATED | VERIFIED → CANCELED by the owner (or staff); a fresh AVAILABLE row keeps the same window. */
export async function cancelTransfer(
  { db, clock }: TransferDeps,
  actor: Actor & { staff?: boolean },
  transferId: string,
  requestId: string | null = null,
): Promise<TransferView> {
  return db.transaction(async (trx) => {
    const { transfer, purchase } = await lockTransfer(trx, transferId, clock.now());
    if (!actor.staff) mustBeOwner(purchase, actor.id, 'cancel its transfer');
    refuseUnless(transfer, CANCELABLE_TRANSFER_STATES, 'canceled');
    await move(trx, transfer, 'CANCELED', { canceledAt: clock.now() });
    const [fresh] = await trx('purchaseUserTransfers')
      .insert({
        purchaseId: purchase.id,
        sourceUserId: purchase.userId,
        transferState: 'AVAILABLE',
        expiresAt: transfer.expiresAt,
      })
      .returning('*');
    await recordAudit(trx, {
      actor,
      action: 'transfer.canceled',
      resource: 'purchase-user-transfers',
      recordId: transfer.id,
      before: { state: transfer.transferState },
      after: { state: 'CANCELED' },
      requestId,
    });
    return transferView(trx, fresh as TransferRow);
  });
}
