import type { Knex } from 'knex';

/** Every column holding a tax rate in basis points. */
const RATE_COLUMNS = [
  ['tax_rates', 'rate_bp'],
  ['checkouts', 'tax_rate_bp'],
  ['merchant_charges', 'tax_rate_bp'],
  ['invoices', 'tax_rate_bp'],
] as const;

/**
 * Tax rates to a tenth of a basis point (a thousandth of a percent): Quebec's GST and QST together are 14.975 %,
 * 1497.5 basis points, which whole basis points cannot hold. Rates stay in basis points everywhere; a rewrite of the
 * column's type fires no row trigger, so issued invoices are not rewritten.
 */
export async function up(knex: Knex): Promise<void> {
  for (const [table, column] of RATE_COLUMNS)
    await knex.raw(`ALTER TABLE ?? ALTER COLUMN ?? TYPE numeric(5, 1)`, [table, column]);
}

export async function down(knex: Knex): Promise<void> {
  for (const [table, column] of RATE_COLUMNS)
    await knex.raw(`ALTER TABLE ?? ALTER COLUMN ?? TYPE integer USING round(??)`, [table, column, column]);
}
