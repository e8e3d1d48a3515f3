import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // A payout sums every line a recipient earned since the last one: a first run after years of sales passes 2^31
  // cents for a best-selling author, which an integer would refuse (and the whole run with it).
  await knex.raw('ALTER TABLE payouts ALTER COLUMN amount TYPE bigint');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE payouts ALTER COLUMN amount TYPE integer');
}
