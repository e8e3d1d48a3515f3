import type { Knex } from 'knex';

/**
 * The home page's featured order, set in the console: 1 is shown first; null means not featured (after the featured
 * ones, newest first). Existing products keep null, so the home page's order does not change until staff set one.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('products', (t) => {
    t.integer('featured_rank').nullable();
    t.check('featured_rank BETWEEN 1 AND 1000', [], 'products_featured_rank_range');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('products', (t) => {
    t.dropChecks(['products_featured_rank_range']);
    t.dropColumn('featured_rank');
  });
}
