import { ProductRevenueSplit } from '../../finance/models';
import { AppError } from '../../shared/errors';
import { SplitCreate, SplitUpdate } from '../schemas/finance';
import { defineResource, type Trx } from '../resource';
import { derived, instant, text } from '../../http/csv-columns';
import { percentage, person, productNamed } from '../lists/export-lookups';

/** Taken before the write: two edits of one product's splits queue here instead of deadlocking later. */
async function lockProduct(trx: Trx, productId: string): Promise<void> {
  await trx('products').where('id', productId).forUpdate().first('id');
}

/** A product's splits total at most 100 %, checked under the product lock so two edits cannot race past it. */
async function assertSplitsFit(trx: Trx, productId: string): Promise<void> {
  const [row] = (await trx('productRevenueSplits').where({ productId }).sum({ total: 'percent' })) as {
    total: string | number | null;
  }[];
  const sum = Number(row?.total ?? 0);
  if (sum > 1 + 1e-9) {
    const message = `the splits of this product would total ${(sum * 100).toFixed(2)} % (at most 100 %)`;
    throw new AppError('validation-failed', `percent: ${message}`, { percent: message });
  }
}

export const productRevenueSplits = defineResource({
  name: 'product-revenue-splits',
  model: ProductRevenueSplit,
  read: ['support', 'finance'],
  write: ['finance'],
  filterable: { id: 'id', productId: 'id', userId: 'id', type: 'enum', percent: 'number', createdAt: 'date' },
  sortable: ['id', 'createdAt', 'percent', 'type'],
  searchable: [],
  defaultSort: ['createdAt', 'ASC'],
  export: {
    lookups: [productNamed('productId', 'product'), person('userId', 'recipient')],
    columns: [
      text('Product', 'product'),
      text('Type', 'type'),
      derived('Recipient email', (s) => s.recipientEmail ?? (s.userId ? null : 'Platform')),
      text('Recipient name', 'recipientName'),
      percentage('Share', 'percent'),
      instant('Created', 'createdAt'),
      text('Split id', 'id'),
    ],
  },
  exactCount: true,
  create: SplitCreate,
  update: SplitUpdate,
  remove: 'hard',
  constraintFields: {
    product_revenue_splits_user_matches_type: {
      field: 'userId',
      message: 'platform splits have no user; owner and contributor splits need one',
    },
  },
  async beforeWrite({ trx }, input, current) {
    await lockProduct(trx, (current?.productId ?? input.productId) as string);
    return input;
  },
  async afterWrite({ trx }, row) {
    await assertSplitsFit(trx, row.productId as string);
  },
});
