import type { Db } from '../../db/connection';
import { coursesOfProducts } from '../../catalog/service';
import { AppError } from '../../shared/errors';
import { ownerHasSeatColumn } from './ownership';
import type { Invoice, MyPurchase } from '../schemas';

/** A buyer's own purchases and invoices; someone else's invoice does not exist for them (404). */
export function myPurchases({ db }: { db: Db }) {
  return {
    async list(userId: string): Promise<MyPurchase[]> {
      const rows = await db('purchases as p')
        .join('products as pr', 'pr.id', 'p.productId')
        .leftJoin('coupons as c', 'c.id', 'p.bulkCouponId')
        .leftJoin('checkouts as co', 'co.purchaseId', 'p.id')
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
          // A seat claimed from someone's gift (their one-seat team bought as a gift).
          db.raw(
            `exists (select 1 from coupons sc join checkouts g on g.purchase_id = sc.bulk_purchase_id
                      where sc.id = p.redeemed_bulk_coupon_id and g.gift) as seat_from_gift`,
          ),
          // A team purchase opens nothing until its buyer takes a seat of it (docs/domain.md §7).
          ownerHasSeatColumn(db, 'p.bulkCouponId', 'p.userId'),
        );
      const courses = await coursesOfProducts(db, [...new Set(rows.map((r) => r.productId as string))]);
      return rows.map((r) => ({
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
        invoiceId: r.merchantChargeId,
      }));
    },

    async invoice(userId: string, chargeId: string): Promise<Invoice> {
      const row = await db('merchantCharges as ch')
        .join('purchases as p', 'p.merchantChargeId', 'ch.id')
        .join('products as pr', 'pr.id', 'p.productId')
        .join('users as u', 'u.id', 'p.userId')
        .leftJoin('checkouts as co', 'co.purchaseId', 'p.id')
        .leftJoin('prices as price', 'price.id', 'co.priceId')
        .where({ 'ch.id': chargeId, 'p.userId': userId })
        .first(
          'ch.id',
          'ch.identifier',
          'ch.amount',
          'ch.refundAmount',
          'ch.currency',
          'ch.createdAt',
          'p.country',
          'pr.name as productName',
          'u.name as buyerName',
          'u.email as buyerEmail',
          'co.quantity',
          'co.creditAmount',
          'price.unitAmount',
        );
      if (!row) throw new AppError('not-found', 'No such invoice.');
      const quantity = row.quantity ?? 1;
      const unitAmount = row.unitAmount ?? row.amount;
      const subtotal = unitAmount * quantity;
      return {
        id: row.id,
        number: row.identifier,
        issuedAt: row.createdAt,
        buyer: { name: row.buyerName, email: row.buyerEmail },
        line: {
          description: quantity > 1 ? `${row.productName} (${quantity} seats)` : row.productName,
          quantity,
          unitAmount,
          subtotal,
        },
        credit: row.creditAmount ?? 0,
        discount: Math.max(0, subtotal - row.amount - (row.creditAmount ?? 0)),
        total: row.amount,
        refunded: row.refundAmount,
        currency: row.currency,
        country: row.country,
      };
    },
  };
}

export type MyPurchasesService = ReturnType<typeof myPurchases>;
