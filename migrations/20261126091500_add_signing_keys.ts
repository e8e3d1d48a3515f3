import type { Knex } from 'knex';

/**
 * Keys the API signs short-lived links with (issue 18: video links, `media-url`), when no key is configured: made
 * once by whichever replica needs one first, then read by every replica, so a link signed by one is good on all.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('signing_keys', (t) => {
    t.text('name').primary();
    t.text('secret').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check(`name ~ '^[a-z][a-z0-9-]{0,39}$'`, [], 'signing_keys_name_shape');
    t.check('char_length(secret) >= 32', [], 'signing_keys_secret_length');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('signing_keys');
}
