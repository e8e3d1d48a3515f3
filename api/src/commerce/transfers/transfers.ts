import type { Knex } from 'knex';
import { OPEN_TRANSFER_STATES } from '../../shared/transfer-states';
import { bindDeps } from '../../shared/bind-deps';
import { acceptTransfer, transferForRecipient, verifyRecipient } from './accept';
import { expire } from './locks';
import { cancelTransfer, offerTransfer, transferForOwner } from './offer';
import type { TransferDeps } from './states';
import { moveBySupport } from './support-move';
import { previewOffer } from './view';

/** Cancels a purchase's transfer under way: the purchase ended, or its credit paid for an upgrade. */
export const cancelOpenTransfers = (trx: Knex.Transaction, purchaseId: string) =>
  trx('purchaseUserTransfers')
    .where({ purchaseId })
    .whereIn('transferState', OPEN_TRANSFER_STATES)
    .update({ transferState: 'CANCELED', canceledAt: trx.fn.now() });

/**
 * Purchase transfers (docs/domain.md §8), one module per side: the owner's (offer.ts), the recipient's (accept.ts),
 * support's (support-move.ts); locks.ts takes the locks every move starts with, states.ts holds the rules.
 */
export function transferService(deps: TransferDeps) {
  const bound = bindDeps(deps);
  return {
    /** The sweep: open transfers whose window passed become EXPIRED. */
    expire: () => expire(deps.db, deps.clock.now()),
    forPurchase: bound(transferForOwner),
    initiate: bound(offerTransfer),
    cancel: bound(cancelTransfer),
    preview: bound(previewOffer),
    forRecipient: bound(transferForRecipient),
    verify: bound(verifyRecipient),
    accept: bound(acceptTransfer),
    moveDirectly: bound(moveBySupport),
  };
}

export type TransferService = ReturnType<typeof transferService>;
