import type { Knex } from 'knex';

/**
 * Finance counts the courses given (comps) in a period beside the ledger's figures: an index of comps by date, so
 * the count reads the few comps rather than every purchase of the period.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE INDEX purchases_comps_by_date ON purchases (created_at) WHERE kind = 'comp'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX purchases_comps_by_date');
}
