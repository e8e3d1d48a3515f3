import { hasMany, linkTable, table } from '../db/base-model';
import type { CatalogStatus, ProductStatus, ProductType } from '../shared/catalog';

export class Product extends table('products') {
  declare id: string;
  declare name: string;
  declare key: string | null;
  declare slug: string | null;
  declare description: string | null;
  declare productType: ProductType;
  declare status: ProductStatus;
  declare quantityAvailable: number;
  declare enrollmentOpensAt: Date | null;
  declare enrollmentClosesAt: Date | null;
  declare imageKey: string | null;
  declare imageAlt: string | null;
  /** The sales page's "what's included" lines staff add after the ones worked out from the data. */
  declare included: string[];
  /** Null: the platform's refund policy. */
  declare refundPolicy: string | null;
  /** The home page's featured order (1 first); null: not featured. */
  declare featuredRank: number | null;
  /** A membership's billing interval ('month' or 'year'); null for every other product (docs/domain.md §22). */
  declare billingInterval: 'month' | 'year' | null;
  /** A membership's free days before its first payment. */
  declare trialDays: number;
  /** A membership that opens every course, those added later too, rather than its linked ones. */
  declare grantsWholeCatalog: boolean;
  declare createdAt: Date;
  declare updatedAt: Date;
  declare prices?: Price[];

  static override get relationMappings() {
    return { prices: hasMany(Price, 'products.id', 'prices.productId') };
  }
}

export class Price extends table('prices') {
  declare id: string;
  declare productId: string;
  declare nickname: string | null;
  declare status: CatalogStatus;
  declare unitAmount: number;
  declare currency: string;
  /** A membership's price is billed each month or year (one current price per interval); a course's has none. */
  declare billingInterval: 'month' | 'year' | null;
  declare createdAt: Date;
}

export class UpgradableProduct extends linkTable('upgradableProducts', ['upgradableFromId', 'upgradableToId']) {
  declare upgradableFromId: string;
  declare upgradableToId: string;
}

/** A question and its answer on a product's sales page, in the product's order (edited with the product). */
export class ProductFaq extends table('productFaqs') {
  declare id: string;
  declare productId: string;
  declare position: number;
  declare question: string;
  declare answer: string;
  declare createdAt: Date;
  declare updatedAt: Date;
}
