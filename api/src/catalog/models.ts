import { Model } from 'objection';
import { BaseModel } from '../db/base-model';
import { ContentResource } from '../learning/models';
import { MerchantProduct } from '../payments/models';
import { ProductRevenueSplit } from '../finance/models';

export const PRODUCT_TYPES = ['self-paced', 'live', 'cohort', 'membership'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

export class Product extends BaseModel {
  static override tableName = 'products';
  declare id: string;
  declare name: string;
  declare key: string | null;
  declare slug: string | null;
  declare description: string | null;
  declare productType: ProductType;
  declare status: 'active' | 'archived';
  declare quantityAvailable: number;
  declare enrollmentOpensAt: Date | null;
  declare enrollmentClosesAt: Date | null;
  declare createdAt: Date;
  declare updatedAt: Date;
  declare prices?: Price[];

  static override get relationMappings() {
    return {
      prices: {
        relation: Model.HasManyRelation,
        modelClass: Price,
        join: { from: 'products.id', to: 'prices.productId' },
      },
      upgradableTo: {
        relation: Model.ManyToManyRelation,
        modelClass: Product,
        join: {
          from: 'products.id',
          through: { from: 'upgradableProducts.upgradableFromId', to: 'upgradableProducts.upgradableToId' },
          to: 'products.id',
        },
      },
      upgradableFrom: {
        relation: Model.ManyToManyRelation,
        modelClass: Product,
        join: {
          from: 'products.id',
          through: { from: 'upgradableProducts.upgradableToId', to: 'upgradableProducts.upgradableFromId' },
          to: 'products.id',
        },
      },
      resources: {
        relation: Model.ManyToManyRelation,
        modelClass: ContentResource,
        join: {
          from: 'products.id',
          through: {
            from: 'productContentResources.productId',
            to: 'productContentResources.resourceId',
            extra: ['position'],
          },
          to: 'contentResources.id',
        },
      },
      merchantProducts: {
        relation: Model.HasManyRelation,
        modelClass: MerchantProduct,
        join: { from: 'products.id', to: 'merchantProducts.productId' },
      },
      revenueSplits: {
        relation: Model.HasManyRelation,
        modelClass: ProductRevenueSplit,
        join: { from: 'products.id', to: 'productRevenueSplits.productId' },
      },
    };
  }
}

export class Price extends BaseModel {
  static override tableName = 'prices';
  declare id: string;
  declare productId: string;
  declare nickname: string | null;
  declare status: 'active' | 'archived';
  declare unitAmount: number;
  declare currency: string;
  declare createdAt: Date;

  static override get relationMappings() {
    return {
      product: {
        relation: Model.BelongsToOneRelation,
        modelClass: Product,
        join: { from: 'prices.productId', to: 'products.id' },
      },
    };
  }
}

export class UpgradableProduct extends BaseModel {
  static override tableName = 'upgradableProducts';
  static override idColumn = ['upgradableFromId', 'upgradableToId'];
  declare id: string; // public handle for the console
  declare upgradableFromId: string;
  declare upgradableToId: string;
  declare createdAt: Date;

  static override get relationMappings() {
    return {
      upgradableFrom: {
        relation: Model.BelongsToOneRelation,
        modelClass: Product,
        join: { from: 'upgradableProducts.upgradableFromId', to: 'products.id' },
      },
      upgradableTo: {
        relation: Model.BelongsToOneRelation,
        modelClass: Product,
        join: { from: 'upgradableProducts.upgradableToId', to: 'products.id' },
      },
    };
  }
}
