import type { Knex } from 'knex';

// Built concurrently: the charges stay writable while it builds (outside a transaction, as that requires).
export const config = { transaction: false };

/**
 * Charges in the order they were made: the job issuing earlier charges' invoices walks them oldest first, a batch
 * after the last, without reading the table again for each batch.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    'CREATE INDEX CONCURRENTLY IF NOT EXISTS merchant_charges_created_at ON merchant_charges (created_at, id)',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS merchant_charges_created_at');
}
