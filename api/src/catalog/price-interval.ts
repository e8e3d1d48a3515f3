import type { Knex } from 'knex';
import { AppError } from '../shared/errors';
import type { Price } from './models';

/**
 * The billing interval a new price of the product gets (docs/domain.md §22): a membership's is the one asked for, or
 * the product's own; a course's price has none, and asking for one is a mistake.
 */
export async function priceInterval(trx: Knex, productId: string, asked: unknown): Promise<Price['billingInterval']> {
  const product = (await trx('products').where({ id: productId }).first('productType', 'billingInterval')) as
    { productType: string; billingInterval: Price['billingInterval'] } | undefined;
  if (!product) return null;
  const interval = (asked ?? null) as Price['billingInterval'];
  if (product.productType !== 'membership') {
    if (interval)
      throw new AppError('validation-failed', 'Only a membership is billed each month or year.', {
        billingInterval: 'only a membership has a billing interval',
      });
    return null;
  }
  return interval ?? product.billingInterval;
}
