import type { Knex } from 'knex';
import { createIndexConcurrently, dropIndexConcurrently } from './concurrent-index';

// Built concurrently: each table stays writable while its index builds (outside a transaction, as that requires).
export const config = { transaction: false };

/**
 * Console filters that name one value of a large table: a provider's identifier pasted from its dashboard (the
 * unique keys start with the account), a provider product, a staff role (an array, so an inverted index), and one
 * record's history in the audit log whatever its kind.
 */
const INDEXES: readonly [name: string, definition: string][] = [
  ['merchant_charges_identifier', 'merchant_charges (identifier)'],
  ['merchant_refunds_identifier', 'merchant_refunds (identifier)'],
  // A product's charges newest first (a few thousand of a million).
  ['merchant_charges_product_by_date', 'merchant_charges (merchant_product_id, created_at)'],
  ['users_roles', 'users USING gin (roles)'],
  ['audit_logs_record_by_date', 'audit_logs (record_id, created_at)'],
];

export async function up(knex: Knex): Promise<void> {
  for (const [name, definition] of INDEXES) {
    await createIndexConcurrently(knex, name, definition);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [name] of [...INDEXES].reverse()) {
    await dropIndexConcurrently(knex, name);
  }
}
