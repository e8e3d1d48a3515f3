import type { Knex } from 'knex';
import { createIndexConcurrently, dropIndexConcurrently } from './concurrent-index';

// Built and dropped concurrently: the tables stay writable meanwhile (outside a transaction, as that requires).
export const config = { transaction: false };

/**
 * References most rows leave empty (a coupon, a team's code, a comp, a correction): every plain sale wrote a NULL
 * entry into each of these indexes, which no read uses (an equality filter, a foreign key's check and a console
 * filter all look for one value, which a partial index holds). Partial, they hold only the rows that have the
 * reference: a fulfilment writes six index entries fewer (docs/measurements.md §23).
 */
const PARTIAL: readonly [name: string, table: string, columns: string, column: string][] = [
  ['purchases_coupon_id_index', 'purchases', 'coupon_id', 'coupon_id'],
  ['purchases_bulk_coupon_id_index', 'purchases', 'bulk_coupon_id', 'bulk_coupon_id'],
  ['purchases_redeemed_bulk_coupon_id_index', 'purchases', 'redeemed_bulk_coupon_id', 'redeemed_bulk_coupon_id'],
  ['purchases_comped_by_id_index', 'purchases', 'comped_by_id', 'comped_by_id'],
  ['invoices_corrects_by_date', 'invoices', 'corrects_id, issued_at', 'corrects_id'],
  ['invoices_invoice_by_date', 'invoices', 'invoice_id, issued_at', 'invoice_id'],
];

/** Each index rebuilt under a new name, then the old one dropped and the new one renamed: never a moment without. */
async function rebuild(knex: Knex, partial: boolean): Promise<void> {
  for (const [name, table, columns, column] of PARTIAL) {
    const next = `${name}_next`;
    await createIndexConcurrently(knex, next, `${table} (${columns})${partial ? ` WHERE ${column} IS NOT NULL` : ''}`);
    await dropIndexConcurrently(knex, name);
    await knex.raw(`ALTER INDEX ${next} RENAME TO ${name}`);
  }
}

export async function up(knex: Knex): Promise<void> {
  await rebuild(knex, true);
}

export async function down(knex: Knex): Promise<void> {
  await rebuild(knex, false);
}
