import type { Knex } from 'knex';
import { AppError } from '../../shared/errors';
import { holdingOf } from '../purchases/ownership';
import type { PurchaseRow, TransferDeps } from './states';

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
 * Purchase, charge and (when it pays for nothing else of theirs) the provider customer change hands. The buyer's
 * network, city and region stay behind (theirs, not the new owner's, and no rule of finance reads them); the country
 * stays on the purchase, the sale's tax evidence and its regional price's rule, as the charge keeps its own.
 */
export async function moveOwnership(
  trx: Knex.Transaction,
  purchase: PurchaseRow,
  targetUserId: string,
): Promise<{ customerIdentifier: string | null }> {
  await trx('purchases')
    .where({ id: purchase.id })
    .update({ userId: targetUserId, ipAddress: null, city: null, state: null });
  if (!purchase.merchantChargeId) return { customerIdentifier: null };
  const [charge] = await trx('merchantCharges')
    .where({ id: purchase.merchantChargeId })
    .update({ userId: targetUserId })
    .returning('merchantCustomerId');
  if (!charge?.merchantCustomerId) return { customerIdentifier: null };
  const shared = await trx('merchantCharges')
    .where({ merchantCustomerId: charge.merchantCustomerId })
    .whereNot({ userId: targetUserId })
    .first('id');
  if (shared) return { customerIdentifier: null };
  const [customer] = await trx('merchantCustomers')
    .where({ id: charge.merchantCustomerId })
    .update({ userId: targetUserId })
    .returning('identifier');
  return { customerIdentifier: customer?.identifier ?? null };
}

/** After commit: the provider's customer takes the new owner's email. */
export async function updateProviderCustomer(
  { provider, logger }: Pick<TransferDeps, 'provider' | 'logger'>,
  identifier: string | null,
  email: string,
): Promise<void> {
  if (!identifier) return;
  // Ours is the record of truth; the provider's copy of the email only affects its receipts, so a failure is logged.
  await provider
    .updateCustomerEmail(identifier, email)
    .catch((error: unknown) => logger.warn({ err: error, identifier }, 'updating the provider customer email failed'));
}
