import type { Knex } from 'knex';
import { AppError } from '../../shared/errors';
import { holdingOf } from '../purchases/ownership';
import type { PurchaseRow } from './states';

/** A recipient who has the course already (bought, or a team seat) is not given a second copy. */
export async function refuseIfHolding(
  trx: Knex.Transaction,
  recipient: { id: string; email: string },
  productId: string,
): Promise<void> {
  if (await holdingOf(trx, recipient.id, productId)) {
    throw new AppError('already-purchased', `${recipient.email} already owns this course.`, {
      email: 'already owns this course',
    });
  }
}

/**
 * The purchase changes hands: who holds it and may open its courses. Who paid for it does not: the charge, its
 * invoice and the provider's customer stay the payer's for ever (docs/domain.md §8), as their receipts and tax
 * records must. The buyer's network, city and region stay behind (theirs, not the new owner's, and no rule of finance
 * reads them); the country stays on the purchase, the sale's tax evidence and its regional price's rule.
 */
export async function moveOwnership(trx: Knex.Transaction, purchase: PurchaseRow, targetUserId: string): Promise<void> {
  await trx('purchases')
    .where({ id: purchase.id })
    .update({ userId: targetUserId, ipAddress: null, city: null, state: null });
}
