import type { Knex } from 'knex';
import { createIndexConcurrently, dropIndexConcurrently } from './concurrent-index';

// Dropped concurrently: the charges stay writable meanwhile (outside a transaction, as that requires).
export const config = { transaction: false };

/**
 * Indexes whose columns lead a wider index of the same table: every read they served the wider one serves, yet every
 * charge a fulfilment records wrote an entry into each (docs/measurements.md §18).
 * `merchant_charges_created_at` (created_at, id) and `merchant_charges_product_by_date` (merchant_product_id,
 * created_at) stay, the latter also serving the foreign key's checks.
 */
const DUPLICATES: readonly [name: string, definition: string][] = [
  ['merchant_charges_created_at_index', 'merchant_charges (created_at)'],
  ['merchant_charges_merchant_product_id_index', 'merchant_charges (merchant_product_id)'],
];

export async function up(knex: Knex): Promise<void> {
  for (const [name] of DUPLICATES) await dropIndexConcurrently(knex, name);
}

export async function down(knex: Knex): Promise<void> {
  for (const [name, definition] of DUPLICATES) await createIndexConcurrently(knex, name, definition);
}
