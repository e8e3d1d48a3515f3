import type { Db } from '../db/connection';
import { Product } from './models';

export interface StoreProduct {
  id: string;
  name: string;
  slug: string | null;
  description: string | null;
  productType: Product['productType'];
  quantityAvailable: number;
  price: { id: string; unitAmount: number; currency: string; nickname: string | null } | null;
}

export function catalogService({ db }: { db: Db }) {
  return {
    /** Active products, newest first, each with its one current price. */
    async listActiveProducts(): Promise<StoreProduct[]> {
      const products = await Product.query(db)
        .where('status', 'active')
        .withGraphFetched('prices(current)')
        .modifiers({ current: (q) => q.where('status', 'active') })
        .orderBy([{ column: 'createdAt', order: 'desc' }, { column: 'id' }]);
      return products.map((p) => {
        const price = p.prices?.[0];
        return {
          id: p.id,
          name: p.name,
          slug: p.slug,
          description: p.description,
          productType: p.productType,
          quantityAvailable: p.quantityAvailable,
          price: price ? { id: price.id, unitAmount: price.unitAmount, currency: price.currency, nickname: price.nickname } : null,
        };
      });
    },
  };
}

export type CatalogService = ReturnType<typeof catalogService>;
