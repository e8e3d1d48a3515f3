import { ownerHasSeatColumn } from '../purchases/ownership';
import type { CheckoutReceipt } from '../schemas';
import type { Conn } from './checkout-rows';

/** The SQL of the thank-you page: what a settled checkout bought, and its team. */

/** The team a purchase opened: its id, seats, and whether its owner took one. */
export const teamOfPurchase = (db: Conn, purchaseId: string) =>
  db('purchases as p')
    .join('coupons as c', 'c.id', 'p.bulkCouponId')
    .where('p.id', purchaseId)
    .first('c.bulkPurchaseId as teamId', 'c.maxUses as seats', ownerHasSeatColumn(db, 'c.id', 'p.userId')) as Promise<
    { teamId: string; seats: number; ownerHasSeat: boolean } | undefined
  >;

/** What the thank-you page names of a settled checkout: its product, what was paid, and the buyer's address. */
export async function receiptOfCheckout(
  db: Conn,
  checkoutId: string,
): Promise<
  | (Omit<CheckoutReceipt, 'coursePath' | 'email'> & {
      email: string;
      buyerUserId: string;
      purchasedAt: Date;
      gift: boolean;
    })
  | undefined
> {
  const row = await db('checkouts as c')
    .join('products as pr', 'pr.id', 'c.productId')
    .join('purchases as p', 'p.id', 'c.purchaseId')
    // The buyer at settlement: the receipt went to them, whoever holds the purchase now.
    .join('users as u', 'u.id', 'c.buyerUserId')
    .where('c.id', checkoutId)
    .first(
      'pr.id as productId',
      'pr.name as productName',
      'pr.slug as productSlug',
      'pr.productType',
      'c.quantity',
      'c.gift',
      'c.amountTotal',
      'c.currency',
      'u.email',
      'u.id as buyerUserId',
      'p.merchantChargeId',
      'p.createdAt as purchasedAt',
      // The charge's invoice as it stands, as the receipt links it (the charge's id finds it too).
      db.raw(
        `(SELECT i.id FROM invoices i WHERE i.merchant_charge_id = p.merchant_charge_id AND i.kind = 'invoice'
             AND NOT EXISTS (SELECT 1 FROM invoices c WHERE c.corrects_id = i.id)) AS invoice_id`,
      ),
    );
  if (!row) return undefined;
  return {
    product: { id: row.productId, name: row.productName, slug: row.productSlug, productType: row.productType },
    gift: row.gift,
    quantity: row.quantity,
    amount: row.amountTotal,
    currency: row.currency,
    email: row.email,
    invoiceId: row.invoiceId ?? row.merchantChargeId,
    buyerUserId: row.buyerUserId,
    purchasedAt: new Date(row.purchasedAt),
  };
}

/** Who holds a purchase now, and of what. */
export const ownerOfPurchase = (db: Conn, purchaseId: string) =>
  db('purchases').where({ id: purchaseId }).first('userId', 'productId') as Promise<
    { userId: string; productId: string } | undefined
  >;
