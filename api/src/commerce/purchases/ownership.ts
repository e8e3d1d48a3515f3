import type { Knex } from 'knex';
import { GRANTING_STATUSES, type PurchaseStatus } from '../models';

export interface Holding {
  id: string;
  status: PurchaseStatus;
  redeemedBulkCouponId: string | null;
}

/**
 * The purchase that gives someone a course themselves (docs/domain.md §5.5, §7): bought on their own or a team seat
 * taken, and still granting access. A team purchase is not one: it grants nothing until its buyer takes a seat.
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

/**
 * Whether a team's buyer holds a seat of it themselves (a team purchase opens nothing until they do), as a column
 * `ownerHasSeat` for a query that has the team coupon's id and the buyer's id in `couponColumn` and `userColumn`.
 */
export function ownerHasSeatColumn(trx: Knex | Knex.Transaction, couponColumn: string, userColumn: string): Knex.Raw {
  return trx.raw(
    `exists (select 1 from purchases s where s.redeemed_bulk_coupon_id = ?? and s.user_id = ?? and s.status in (${GRANTING_STATUSES.map(() => '?').join(', ')})) as "ownerHasSeat"`,
    [couponColumn, userColumn, ...GRANTING_STATUSES],
  );
}
