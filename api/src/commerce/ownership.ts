import type { Knex } from 'knex';
import { GRANTING_STATUSES, type PurchaseStatus } from './models';

export interface Holding {
  id: string;
  status: PurchaseStatus;
  redeemedBulkCouponId: string | null;
}

/**
 * The purchase that gives someone a course themselves (DOMAIN §5.5, §7): bought on their own or a team seat taken,
 * and still granting access. A team purchase is not one: it grants nothing until its buyer takes a seat.
 * `except` leaves out a purchase (the upgrade source of a checkout that unlocks it).
 */
export async function holdingOf(
  trx: Knex | Knex.Transaction,
  userId: string,
  productId: string,
  { statuses = GRANTING_STATUSES, except }: { statuses?: readonly PurchaseStatus[]; except?: string | null } = {},
): Promise<Holding | undefined> {
  const query = trx('purchases').where({ userId, productId }).whereNull('bulkCouponId').whereIn('status', statuses);
  if (except) query.whereNot({ id: except });
  return query.first('id', 'status', 'redeemedBulkCouponId');
}

/** The same, for whoever has this email (a guest at checkout, a transfer's recipient). */
export async function holdingOfEmail(trx: Knex | Knex.Transaction, email: string, productId: string): Promise<Holding | undefined> {
  const user = await trx('users').whereRaw('lower(email) = lower(?)', [email]).first('id');
  return user ? holdingOf(trx, user.id, productId) : undefined;
}
