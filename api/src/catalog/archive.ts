import type { Knex } from 'knex';
import type { AuditEntry } from '../audit/record';
import type { Price } from './models';

/** A catalog write in progress: its transaction, and how it records its side effects (the writer's audit log). */
export interface CatalogWrite {
  trx: Knex.Transaction;
  audit(entry: Omit<AuditEntry, 'actor' | 'requestId'>): Promise<void>;
}

/**
 * Archives the product's current prices (audited): a product has one current price, older ones stay for history
 * (docs/domain.md §2, Price); a membership has one per billing interval (`interval` given: only that one's).
 */
export async function retireCurrentPrices(
  { trx, audit }: CatalogWrite,
  productId: string,
  interval?: Price['billingInterval'],
): Promise<void> {
  const current = trx('prices').where({ productId, status: 'active' });
  if (interval !== undefined) current.where({ billingInterval: interval });
  const retired: Pick<Price, 'id'>[] = await current.update({ status: 'archived' }).returning('id');
  for (const price of retired) {
    await audit({
      action: 'update',
      resource: 'prices',
      recordId: price.id,
      before: { status: 'active' },
      after: { status: 'archived' },
    });
  }
}

/**
 * Before a product gets a new price: one price change per product at a time, and the current one (of the same billing
 * interval, for a membership) retires.
 */
export async function makeRoomForNewPrice(
  write: CatalogWrite,
  productId: string,
  interval: Price['billingInterval'] = null,
): Promise<void> {
  await write.trx('products').where('id', productId).forUpdate().first('id');
  await retireCurrentPrices(write, productId, interval);
}

/** Marks a product's merchant records inactive (audited). */
async function deactivateMerchantRecords({ trx, audit }: CatalogWrite, productId: string): Promise<void> {
  const products = await trx('merchantProducts')
    .where({ productId, status: 'active' })
    .update({ status: 'inactive' })
    .returning('id');
  const prices = await trx('merchantPrices')
    .whereIn('merchantProductId', trx('merchantProducts').select('id').where({ productId }))
    .where({ status: 'active' })
    .update({ status: 'inactive' })
    .returning('id');
  for (const [resource, rows] of [
    ['merchant-products', products],
    ['merchant-prices', prices],
  ] as const) {
    for (const { id } of rows as { id: string }[])
      await audit({
        action: 'update',
        resource,
        recordId: id,
        before: { status: 'active' },
        after: { status: 'inactive' },
      });
  }
}

/**
 * What follows from a product's status changing, in the same transaction. Archiving hides the product: its price
 * and merchant records go with it; purchases keep their access (docs/domain.md §2, last point).
 */
export async function onProductStatusChange(
  write: CatalogWrite,
  productId: string,
  previousStatus: string,
  status: string,
): Promise<void> {
  if (previousStatus !== 'archived' && status === 'archived') {
    await retireCurrentPrices(write, productId);
    await deactivateMerchantRecords(write, productId);
  }
}
