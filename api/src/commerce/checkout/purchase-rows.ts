import type { Knex } from 'knex';
import { GRANTING_STATUSES, type Purchase } from '../models';
import { insertRow, type CheckoutRow } from './checkout-rows';

/** The SQL of the purchase a settlement writes, and of the earlier purchase an upgrade spends. */

export const lockPurchase = (trx: Knex.Transaction, purchaseId: string) =>
  trx('purchases')
    .where({ id: purchaseId })
    .forUpdate()
    .first('userId', 'status', 'merchantChargeId', 'currency') as Promise<
    Pick<Purchase, 'userId' | 'status' | 'merchantChargeId' | 'currency'> | undefined
  >;

export const upgradeOf = (trx: Knex.Transaction, purchaseId: string) =>
  trx('purchases').where({ upgradedFromId: purchaseId }).first('id') as Promise<Pick<Purchase, 'id'> | undefined>;

/** The columns a settled checkout's purchase is written with (its id too when chosen before). */
export type NewPurchase = Partial<Pick<Purchase, 'id'>> &
  Pick<
    Purchase,
    | 'userId'
    | 'productId'
    | 'status'
    | 'totalAmount'
    | 'currency'
    | 'country'
    | 'ipAddress'
    | 'city'
    | 'state'
    | 'couponId'
    | 'merchantChargeId'
    | 'merchantSessionId'
    | 'upgradedFromId'
  >;

/** How a checkout is settled by its purchase. */
export type CheckoutSettlement = Partial<Pick<CheckoutRow, 'buyerUserId' | 'team'>> & {
  status: 'fulfilled' | 'refunded';
};

/**
 * Writes a purchase in one statement: the checkout's settlement, its offer to be given away (`offerDays` after the
 * purchase, when there is one) and the other writes follow the new row through WITH.
 */
export async function insertPurchaseWith(
  trx: Knex.Transaction,
  purchase: NewPurchase,
  checkoutId: string,
  settled: CheckoutSettlement,
  offerDays: number | null,
  also: (Knex.QueryBuilder | Knex.Raw)[],
): Promise<string> {
  const parts = purchaseParts(trx, purchase, checkoutId, settled, offerDays, also);
  const write = parts.reduce<Knex.QueryBuilder | null>(
    (q, [name, part]) => (q ? q.with(name, part) : trx.with(name, part)),
    null,
  )!;
  const [inserted] = await write.select('id').from('purchase');
  return inserted.id;
}

/** `insertPurchaseWith`'s statement as named parts (WITH). */
function purchaseParts(
  trx: Knex.Transaction,
  purchase: NewPurchase,
  checkoutId: string,
  settled: CheckoutSettlement,
  offerDays: number | null,
  also: (Knex.QueryBuilder | Knex.Raw)[],
): [string, Knex.QueryBuilder | Knex.Raw][] {
  const name = 'purchase';
  const parts: [string, Knex.QueryBuilder | Knex.Raw][] = [
    [name, trx('purchases').insert(purchase).returning(['id', 'createdAt'])],
    [
      'settled',
      trx('checkouts')
        .where({ id: checkoutId })
        .update({ ...settled, purchaseId: trx(name).select('id') }),
    ],
  ];
  if (offerDays !== null) {
    const offer = trx(name).select(
      'id',
      trx.raw('?::uuid', [purchase.userId]),
      trx.raw('?', ['AVAILABLE']),
      trx.raw('?? + make_interval(secs => ?)', ['createdAt', offerDays * 86_400]),
    );
    parts.push([
      'offer',
      trx
        .into(
          trx.raw('?? (??, ??, ??, ??)', [
            'purchaseUserTransfers',
            'purchaseId',
            'sourceUserId',
            'transferState',
            'expiresAt',
          ]),
        )
        .insert(offer),
    ]);
  }
  also.forEach((query, i) => parts.push([`also_${i}`, query]));
  return parts;
}

/** The buyer's live team coupon for a product, locked (more seats are added to it). */
export const lockTeamCoupon = async (trx: Knex.Transaction, userId: string, productId: string) =>
  (
    await trx('purchases as p')
      .join('coupons as c', 'c.id', 'p.bulkCouponId')
      .where({ 'p.userId': userId, 'p.productId': productId })
      .whereIn('p.status', GRANTING_STATUSES)
      // A gift's one seat is a team of its own (its claim link went to one person): never grown by later seats.
      .whereNotExists(trx('checkouts as g').where('g.purchaseId', trx.ref('p.id')).where('g.gift', true))
      .forUpdate()
      .first('c.id as couponId')
  )?.couponId as string | undefined;

export const addSeats = (trx: Knex.Transaction, couponId: string, seats: number) =>
  trx('coupons').where({ id: couponId }).increment('maxUses', seats);

export async function insertPurchase(
  trx: Knex.Transaction,
  purchase: NewPurchase & Partial<Pick<Purchase, 'bulkCouponId'>>,
): Promise<string> {
  return insertRow(trx, 'purchases', purchase);
}

/** A new team's own 100 % coupon for its seats, tied to the purchase both ways. */
export async function insertTeamCoupon(
  trx: Knex.Transaction,
  purchaseId: string,
  productId: string,
  seats: number,
): Promise<void> {
  const [coupon] = await trx('coupons')
    .insert({ percentageDiscount: 1, maxUses: seats, restrictedToProductId: productId, bulkPurchaseId: purchaseId })
    .returning('id');
  await trx('purchases').where({ id: purchaseId }).update({ bulkCouponId: coupon.id });
}

export const settleCheckout = (
  trx: Knex.Transaction,
  checkoutId: string,
  settled: CheckoutSettlement & { purchaseId: string },
) => trx('checkouts').where({ id: checkoutId }).update(settled);
