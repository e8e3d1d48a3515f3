import type { Knex } from 'knex';
import { createIndexConcurrently, dropIndexConcurrently } from './concurrent-index';

// Built concurrently: the invoices stay writable while the index builds (outside a transaction, as that requires).
export const config = { transaction: false };

/**
 * The console's invoices of one year, newest first: an earlier year's are the oldest rows, so without the pair the
 * planner walks the date index back through every later invoice before it finds one (half a second at 200,000
 * invoices, growing with them).
 */
const INDEXES: readonly [name: string, definition: string][] = [
  ['invoices_year_by_date', 'invoices (year, issued_at)'],
];

export async function up(knex: Knex): Promise<void> {
  for (const [name, definition] of INDEXES) await createIndexConcurrently(knex, name, definition);
}

export async function down(knex: Knex): Promise<void> {
  for (const [name] of [...INDEXES].reverse()) await dropIndexConcurrently(knex, name);
}
