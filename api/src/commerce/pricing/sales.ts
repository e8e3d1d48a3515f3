import type { Db } from '../../db/connection';
import type { StoreSale } from '../../catalog/schemas';
import { defaultCoupons } from '../coupons/coupons';
import { quote, toBp } from './prices';

interface SaleCoupon {
  id: string;
  percentageDiscount: number;
  expires: Date | null;
  restrictedToProductId: string | null;
}

/**
 * The sale each product shows in the catalog and on its page: the best default coupon for it, exactly as a quote
 * picks it (commerce/coupons/coupons.ts `defaultCoupons`: active, unexpired, not used up, site-wide or for this product,
 * highest percentage first, oldest first), and one unit's price with it as a quote without coupon, regional price
 * or upgrade credit makes it. One query for every product: the home page asks on every view. The catalog and the
 * product page call it through `SalesOf` (catalog/sales.ts), passed in from api/src/services.ts.
 */
export async function salesOf(
  db: Db,
  products: { id: string; unitAmount: number | null }[],
  now: Date,
): Promise<Map<string, StoreSale>> {
  const sales = new Map<string, StoreSale>();
  const priced = products.filter((p): p is { id: string; unitAmount: number } => (p.unitAmount ?? 0) > 0);
  if (priced.length === 0) return sales;
  const coupons: SaleCoupon[] = await defaultCoupons(
    db,
    priced.map((p) => p.id),
    now,
  ).select('id', 'percentageDiscount', 'expires', 'restrictedToProductId');
  for (const product of priced) {
    const coupon = coupons.find((c) => c.restrictedToProductId === null || c.restrictedToProductId === product.id);
    if (!coupon) continue;
    const bp = toBp(coupon.percentageDiscount);
    const priced = quote({
      unitAmount: product.unitAmount,
      quantity: 1,
      team: false,
      existingSeats: 0,
      pppBp: null,
      pppRequested: false,
      coupon: null,
      defaultCoupon: { id: coupon.id, code: null, bp, expires: coupon.expires },
      upgradeCredit: 0,
    });
    // A sale the minimum charge swallows takes nothing off: no sale to show.
    if (!priced.discount) continue;
    sales.set(product.id, { percent: bp / 100, unitAmount: priced.finalPrice, endsAt: coupon.expires });
  }
  return sales;
}
