import type { Knex } from 'knex';
import { NON_GRANTING_STATUSES } from '../../shared/purchase-status';
import { GRANTING_STATUSES, type PurchaseStatus } from '../models';

/**
 * The only edges a purchase's status may move along (docs/domain.md §6.1). Refunded, Banned and Revoked are final, so a
 * late or duplicated provider event can never undo a newer state.
 */
const PURCHASE_EDGES: Record<PurchaseStatus, readonly PurchaseStatus[]> = {
  Valid: NON_GRANTING_STATUSES,
  Restricted: NON_GRANTING_STATUSES,
  Disputed: [...GRANTING_STATUSES, 'Banned'], // a dispute won gives back the access it had
  Refunded: [],
  Banned: [],
  Revoked: [], // a seat let back in is a new seat
};

/** The statuses a purchase may move to `to` from. */
export const sourcesOf = (to: PurchaseStatus) =>
  (Object.keys(PURCHASE_EDGES) as PurchaseStatus[]).filter((from) => PURCHASE_EDGES[from].includes(to));

/** Moves a purchase along an allowed edge; false when it is not in a state that may move there. */
export async function moveStatus(
  trx: Knex.Transaction,
  purchaseId: string,
  to: PurchaseStatus,
  reason: string | null,
): Promise<boolean> {
  const moved = await trx('purchases')
    .where({ id: purchaseId })
    .whereIn('status', sourcesOf(to))
    .update({ status: to, statusReason: reason });
  return moved > 0;
}
