import type { Knex } from 'knex';
import { seatsSold } from '../seats-sold';
import { enrollmentState } from '../service';

/** Where a product stands for buyers: on sale, or why not (`unavailable`: archived or gone, no page to show). */
export type SaleState = 'on-sale' | 'sold-out' | 'not-open' | 'closed' | 'not-on-sale' | 'unavailable';

interface ProductFacts {
  id: string;
  name: string;
  slug: string | null;
  status: string;
  quantityAvailable: number;
  enrollmentOpensAt: Date | null;
  enrollmentClosesAt: Date | null;
}

/**
 * Whether the product can be bought at `now`, by the same rules as the storefront's list and the checkout: active,
 * a current price, enrollment open, a seat left (seats counted as the checkout counts them). The order of the reasons
 * is the storefront's (saleBlocker): the enrollment window first, then the price, then the seats.
 */
export async function saleStateOf(
  conn: Knex | Knex.Transaction,
  productId: string,
  now: Date,
): Promise<{ state: SaleState; product: ProductFacts | null; seatsLeft: number | null }> {
  const product: ProductFacts | undefined = await conn('products')
    .where({ id: productId })
    .first('id', 'name', 'slug', 'status', 'quantityAvailable', 'enrollmentOpensAt', 'enrollmentClosesAt');
  if (!product || product.status !== 'active')
    return { state: 'unavailable', product: product ?? null, seatsLeft: null };
  const seatsLeft =
    product.quantityAvailable >= 0 ? Math.max(0, product.quantityAvailable - (await seatsSold(conn, productId))) : null;
  const enrollment = enrollmentState(product, now);
  if (enrollment !== 'open') return { state: enrollment, product, seatsLeft };
  const price = await conn('prices').where({ productId, status: 'active' }).first('id');
  if (!price) return { state: 'not-on-sale', product, seatsLeft };
  return { state: seatsLeft === 0 ? 'sold-out' : 'on-sale', product, seatsLeft };
}
