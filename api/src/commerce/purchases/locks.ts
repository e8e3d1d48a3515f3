import type { Knex } from 'knex';
import { AppError } from '../../shared/errors';
import type { MerchantCharge } from '../../payments/models';
import type { Purchase } from '../models';

/** What refunds, disputes and bans read of a purchase. */
export type PurchaseRow = Pick<
  Purchase,
  'id' | 'userId' | 'productId' | 'status' | 'merchantChargeId' | 'bulkCouponId' | 'redeemedBulkCouponId'
>;

/** What a refund reads of the charge it returns money from. */
export type ChargeRow = Pick<
  MerchantCharge,
  'id' | 'userId' | 'merchantAccountId' | 'identifier' | 'amount' | 'refundAmount' | 'currency' | 'taxAmount'
>;

export async function lockedPurchase(trx: Knex.Transaction, purchaseId: string): Promise<PurchaseRow> {
  const purchase = (await trx('purchases').where({ id: purchaseId }).forUpdate().first()) as PurchaseRow | undefined;
  if (!purchase) throw new AppError('not-found', 'No such purchase.');
  return purchase;
}

/** The purchases paid by a provider charge (a team's seats hang off the buyer's purchase). */
export async function purchasesOfCharge(trx: Knex.Transaction, chargeId: string): Promise<PurchaseRow[]> {
  return trx('purchases').where({ merchantChargeId: chargeId }).orderBy('createdAt');
}

/**
 * Locks a charge's purchases, then the charge: the order every writer of both uses (transfers, refunds), so
 * two of them never wait on each other.
 */
export async function lockCharge(trx: Knex.Transaction, chargeId: string): Promise<ChargeRow> {
  await trx('purchases').where({ merchantChargeId: chargeId }).orderBy('id').forUpdate().select('id');
  return (await trx('merchantCharges').where({ id: chargeId }).forUpdate().first()) as ChargeRow;
}

/** A provider's charge by its id at the provider, locked as `lockCharge` locks it; undefined when we do not know it. */
export async function chargeByIdentifier(
  trx: Knex.Transaction,
  accountId: string,
  identifier: string,
): Promise<ChargeRow | undefined> {
  const found = await trx('merchantCharges').where({ merchantAccountId: accountId, identifier }).first('id');
  return found && lockCharge(trx, found.id);
}
