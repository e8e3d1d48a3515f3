import type { Knex } from 'knex';
import { inList } from './helpers';

const STATUSES_BEFORE = ['active', 'archived'];
const STATUSES = ['draft', ...STATUSES_BEFORE];

/**
 * A product can be a draft: made in the console, not on sale, not in the catalog or the sitemap until staff publish
 * it (status `active`). Expand only: the column's default stays `active`, so code that never writes `draft` (the
 * seeds, the factories) runs on it unchanged.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE products DROP CONSTRAINT products_status_known');
  await knex.raw(`ALTER TABLE products ADD CONSTRAINT products_status_known CHECK (status IN (${inList(STATUSES)}))`);
}

export async function down(knex: Knex): Promise<void> {
  // A draft was never on sale: going back, it is kept out of the storefront as archived.
  await knex('products').where({ status: 'draft' }).update({ status: 'archived' });
  await knex.raw('ALTER TABLE products DROP CONSTRAINT products_status_known');
  await knex.raw(
    `ALTER TABLE products ADD CONSTRAINT products_status_known CHECK (status IN (${inList(STATUSES_BEFORE)}))`,
  );
}
