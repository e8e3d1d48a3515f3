import type { Db } from '../db/connection';
import type { StoreSale } from './schemas';

/**
 * The sale each product shows in the catalog and on its page, by product id: commerce prices it
 * (commerce/pricing/sales.ts), passed in from api/src/services.ts.
 */
export type SalesOf = (
  db: Db,
  products: { id: string; unitAmount: number | null }[],
  now: Date,
) => Promise<Map<string, StoreSale>>;

/** What changes a catalog page's sales: part of the key its cached JSON is kept under. */
export function salesKey(sales: Map<string, StoreSale>): string {
  return [...sales].map(([id, s]) => `${id}:${s.unitAmount}:${s.endsAt?.getTime() ?? ''}`).join();
}
