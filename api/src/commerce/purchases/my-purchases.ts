import type { Db } from '../../db/connection';
import { coursesOfProducts } from '../../catalog/service';
import { shownName } from '../../shared/shown-name';
import { ownerHasSeatColumn } from './ownership';
import type { GivenBy, MyPurchase } from '../schemas';

/**
 * How someone came to hold a purchase they did not pay for: a seat of someone's team or gift, or a purchase given to
 * them (offered and accepted, or moved by support) by its previous holder. Null for their own (a team's buyer taking
 * a seat of their own team, or a purchase that came back to its payer).
 */
function givenByOf(
  userId: string,
  r: {
    createdAt: Date;
    payerId: string | null;
    givenAt: Date | null;
    givenBySupport: boolean | null;
    giverId: string | null;
    giverName: string | null;
    teamBuyerId: string | null;
    teamBuyerName: string | null;
    seatFromGift: boolean | null;
  },
): GivenBy | null {
  if (r.teamBuyerId)
    return r.teamBuyerId === userId
      ? null
      : {
          name: shownName({ id: r.teamBuyerId, name: r.teamBuyerName }),
          at: r.createdAt,
          how: r.seatFromGift ? 'gift' : 'seat',
        };
  if (!r.giverId || !r.givenAt || r.payerId === userId) return null;
  return {
    name: shownName({ id: r.giverId, name: r.giverName }),
    at: r.givenAt,
    how: r.givenBySupport ? 'move' : 'transfer',
  };
}

/** A person's purchases; their invoices are in api/src/invoices (the payer's, whoever holds the purchase later). */
export function myPurchases({ db }: { db: Db }) {
  return {
    async list(userId: string): Promise<MyPurchase[]> {
      const rows = await db('purchases as p')
        .join('products as pr', 'pr.id', 'p.productId')
        .leftJoin('coupons as c', 'c.id', 'p.bulkCouponId')
        .leftJoin('checkouts as co', 'co.purchaseId', 'p.id')
        .leftJoin('merchantCharges as ch', 'ch.id', 'p.merchantChargeId')
        // Who gave it to them, when they did not pay for it: the last transfer to them, or the team's buyer.
        .joinRaw(
          `left join lateral (select t.source_user_id, t.completed_at, t.by_support from purchase_user_transfers t
                               where t.purchase_id = p.id and t.transfer_state = 'COMPLETED' and t.target_user_id = p.user_id
                               order by t.completed_at desc, t.id desc limit 1) given on true`,
        )
        .leftJoin('users as giver', 'giver.id', 'given.sourceUserId')
        .leftJoin('coupons as seat_coupon', 'seat_coupon.id', 'p.redeemedBulkCouponId')
        .leftJoin('purchases as team_purchase', 'team_purchase.id', 'seat_coupon.bulkPurchaseId')
        .leftJoin('users as team_buyer', 'team_buyer.id', 'team_purchase.userId')
        .where('p.userId', userId)
        .orderBy('p.createdAt', 'desc')
        .select(
          'p.id',
          'p.status',
          'p.totalAmount',
          'p.currency',
          'p.createdAt',
          'p.country',
          'p.merchantChargeId',
          'p.redeemedBulkCouponId',
          'p.bulkCouponId',
          'pr.id as productId',
          'pr.name as productName',
          'pr.slug as productSlug',
          'c.maxUses',
          'c.usedCount',
          'c.bulkPurchaseId',
          'co.quantity',
          'co.gift',
          'ch.userId as payerId',
          'given.completedAt as givenAt',
          'given.bySupport as givenBySupport',
          'giver.id as giverId',
          'giver.name as giverName',
          'team_buyer.id as teamBuyerId',
          'team_buyer.name as teamBuyerName',
          // A seat claimed from someone's gift (their one-seat team bought as a gift).
          db.raw(
            `exists (select 1 from coupons sc join checkouts g on g.purchase_id = sc.bulk_purchase_id
                      where sc.id = p.redeemed_bulk_coupon_id and g.gift) as seat_from_gift`,
          ),
          // A team purchase opens nothing until its buyer takes a seat of it (docs/domain.md §7).
          ownerHasSeatColumn(db, 'p.bulkCouponId', 'p.userId'),
        );
      const courses = await coursesOfProducts(db, [...new Set(rows.map((r) => r.productId as string))]);
      return rows.map((r) => {
        const givenBy = givenByOf(userId, r);
        return {
          id: r.id,
          product: { id: r.productId, name: r.productName, slug: r.productSlug },
          status: r.status,
          totalAmount: r.totalAmount,
          currency: r.currency,
          createdAt: r.createdAt,
          country: r.country,
          team: r.bulkCouponId
            ? {
                seats: r.maxUses,
                used: r.usedCount,
                teamId: r.bulkPurchaseId,
                addedSeats: r.bulkPurchaseId !== r.id,
                quantity: r.quantity ?? r.maxUses,
                ownerHasSeat: r.ownerHasSeat,
                gift: r.gift === true,
              }
            : null,
          courses: courses.get(r.productId) ?? [],
          seat: Boolean(r.redeemedBulkCouponId),
          seatFromGift: r.seatFromGift === true,
          // They paid nothing for a purchase given to them: the invoice is the payer's.
          invoiceId: givenBy ? null : r.merchantChargeId,
          givenBy,
        };
      });
    },
  };
}

export type MyPurchasesService = ReturnType<typeof myPurchases>;
