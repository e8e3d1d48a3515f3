import { makeRoomForNewPrice, onProductStatusChange } from '../../catalog/archive';
import { faqColumn, replaceFaq } from '../../catalog/faq';
import { priceInterval } from '../../catalog/price-interval';
import { Price, Product, UpgradableProduct } from '../../catalog/models';
import type { FaqItem } from '../../catalog/schemas';
import { ProductContentResource } from '../../learning/models';
import {
  PriceCreate,
  PriceUpdate,
  ProductContentCreate,
  ProductContentUpdate,
  ProductCreate,
  ProductUpdate,
  UpgradableProductCreate,
} from '../schemas/catalog';
import { AppError } from '../../shared/errors';
import { defineResource } from '../resource';
import { derived, instant, money, number, text } from '../../http/csv-columns';
import { productNamed } from '../lists/export-lookups';

const STAFF = ['support', 'finance'] as const;

export const products = defineResource({
  name: 'products',
  model: Product,
  read: STAFF,
  filterable: { id: 'id', status: 'enum', productType: 'enum', quantityAvailable: 'number', createdAt: 'date' },
  sortable: ['id', 'name', 'status', 'productType', 'quantityAvailable', 'featuredRank', 'createdAt', 'updatedAt'],
  searchable: ['name', 'key', 'slug'],
  defaultSort: ['createdAt', 'DESC'],
  // A school's catalog: hundreds of products, sorted in memory in no time.
  exactCount: true,
  export: {
    columns: [
      text('Name', 'name'),
      text('Type', 'productType'),
      text('Status', 'status'),
      derived('Seats available', (p) => (p.quantityAvailable === -1 ? 'Unlimited' : p.quantityAvailable)),
      text('Slug', 'slug'),
      instant('Created', 'createdAt'),
      text('Product id', 'id'),
    ],
  },
  // The row and its sales page questions (product_faqs), which the console edits with it.
  baseQuery: (db) => Product.query(db).select('products.*', faqColumn(db)),
  create: ProductCreate,
  update: ProductUpdate,
  remove: 'hard',
  deleteGuards: [
    {
      code: 'product-has-purchases',
      message: 'This product has purchases; archive it instead of deleting it.',
      blocks: async (trx, id) => Boolean(await trx('purchases').where('productId', id).first('id')),
    },
  ],
  constraintFields: {
    products_key_unique: { field: 'key', message: 'is already used by another product' },
    products_slug_unique: { field: 'slug', message: 'is already used by another product' },
    products_enrollment_window_order: { field: 'enrollmentClosesAt', message: 'must be after the opening' },
  },
  async beforeWrite(hook, input, current) {
    const { unitAmount: _amount, currency: _currency, faq, ...product } = input;
    // A draft is a product never sold: one that was bought is taken off sale by archiving it.
    if (current && product.status === 'draft' && current.status !== 'draft') {
      if (
        await hook
          .trx('purchases')
          .where('productId', current.id as string)
          .first('id')
      )
        throw new AppError('status-change-not-allowed', 'This product has been bought: archive it instead.', {
          status: 'a product that has been bought cannot go back to draft; archive it instead',
        });
    }
    if (current && faq) {
      await replaceFaq(hook.trx, current.id as string, faq as FaqItem[]);
      // Only the questions changed: the product is still updated (its updated_at moves).
      if (Object.keys(product).length === 0) return { updatedAt: hook.trx.fn.now() };
    }
    return product;
  },
  async afterWrite(hook, row, previous, input) {
    if (!previous && typeof input.unitAmount === 'number') {
      const price = await Price.query(hook.trx).insertAndFetch({
        productId: row.id as string,
        unitAmount: input.unitAmount,
        currency: input.currency as string,
        nickname: row.name as string,
        billingInterval: (row.billingInterval as Price['billingInterval']) ?? null,
      });
      await hook.audit({ action: 'create', resource: 'prices', recordId: price.id, after: price });
    }
    if (previous) await onProductStatusChange(hook, row.id as string, previous.status as string, row.status as string);
  },
});

export const prices = defineResource({
  name: 'prices',
  model: Price,
  read: STAFF,
  filterable: { id: 'id', productId: 'id', status: 'enum', currency: 'enum', unitAmount: 'number', createdAt: 'date' },
  sortable: ['id', 'createdAt', 'unitAmount', 'status'],
  searchable: ['nickname'],
  defaultSort: ['createdAt', 'DESC'],
  export: {
    lookups: [productNamed('productId', 'product')],
    columns: [
      text('Product', 'product'),
      money('Amount', 'unitAmount'),
      text('Currency', 'currency'),
      text('Nickname', 'nickname'),
      text('Status', 'status'),
      instant('Created', 'createdAt'),
      text('Price id', 'id'),
    ],
  },
  exactCount: true,
  create: PriceCreate,
  update: PriceUpdate,
  async beforeWrite(hook, input, current) {
    if (current) return input;
    const billingInterval = await priceInterval(hook.trx, input.productId as string, input.billingInterval);
    await makeRoomForNewPrice(hook, input.productId as string, billingInterval);
    return { ...input, billingInterval, status: 'active' };
  },
});

export const upgradableProducts = defineResource({
  name: 'upgradable-products',
  model: UpgradableProduct,
  idColumn: 'id',
  read: STAFF,
  filterable: { id: 'id', upgradableFromId: 'id', upgradableToId: 'id' },
  sortable: ['id', 'createdAt'],
  searchable: [],
  defaultSort: ['createdAt', 'DESC'],
  export: {
    lookups: [productNamed('upgradableFromId', 'fromProduct'), productNamed('upgradableToId', 'toProduct')],
    columns: [
      text('From product', 'fromProduct'),
      text('To product', 'toProduct'),
      instant('Created', 'createdAt'),
      text('Upgrade path id', 'id'),
    ],
  },
  exactCount: true,
  create: UpgradableProductCreate,
  remove: 'hard',
  constraintFields: {
    upgradable_products_pkey: { field: 'upgradableToId', message: 'is already an upgrade of that product' },
  },
});

export const productContentResources = defineResource({
  name: 'product-content-resources',
  model: ProductContentResource,
  idColumn: 'id',
  read: [...STAFF, 'contributor'],
  filterable: { id: 'id', productId: 'id', resourceId: 'id' },
  sortable: ['id', 'position', 'createdAt'],
  searchable: [],
  defaultSort: ['position', 'ASC'],
  export: {
    lookups: [
      productNamed('productId', 'product'),
      { from: 'resourceId', table: 'contentResources', fields: { content: 'fields', contentType: 'type' } },
    ],
    columns: [
      text('Product', 'product'),
      derived('Content', (g) => (g.content as { title?: string } | null)?.title),
      text('Content type', 'contentType'),
      number('Position', 'position'),
      instant('Created', 'createdAt'),
      text('Grant id', 'id'),
    ],
  },
  exactCount: true,
  create: ProductContentCreate,
  update: ProductContentUpdate,
  remove: 'hard',
  constraintFields: {
    product_content_resources_pkey: { field: 'resourceId', message: 'is already part of this product' },
  },
  scope: (query) =>
    query.whereRaw(
      'NOT EXISTS (SELECT 1 FROM content_resources gone WHERE gone.id = product_content_resources.resource_id AND gone.deleted_at IS NOT NULL)',
    ),
});
