import type { Knex } from 'knex';

// Spelled out here, not imported: a landed migration must not change meaning when the code does.
const IMAGE_KEY = '^[0-9a-f]{32}-[1-9][0-9]{0,4}x[1-9][0-9]{0,4}\\.(jpg|png|webp|avif)$';

/**
 * Pictures (issue 17): a product's image with its alt text and a person's avatar, each the key of an original in
 * the media storage (named by a hash of its bytes, its size and type), indexed so the job that removes replaced
 * images finds whether anything still points to one; and that job's queue.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('products', (t) => {
    t.text('image_key');
    t.text('image_alt');
    t.check(`image_key ~ '${IMAGE_KEY}'`, [], 'products_image_key_shape');
    t.check(`char_length(image_alt) BETWEEN 1 AND 300`, [], 'products_image_alt_length');
    t.index('image_key', 'products_image_key_index', { predicate: knex.whereNotNull('image_key') });
  });
  await knex.schema.alterTable('users', (t) => {
    t.text('avatar_key');
    t.check(`avatar_key ~ '${IMAGE_KEY}'`, [], 'users_avatar_key_shape');
    t.index('avatar_key', 'users_avatar_key_index', { predicate: knex.whereNotNull('avatar_key') });
  });
  await knex.raw(`SELECT pgboss.create_queue('delete-image', '{"policy":"standard"}'::json)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`SELECT pgboss.delete_queue('delete-image')`);
  await knex.schema.alterTable('users', (t) => {
    t.dropIndex('avatar_key', 'users_avatar_key_index');
    t.dropChecks(['users_avatar_key_shape']);
    t.dropColumn('avatar_key');
  });
  await knex.schema.alterTable('products', (t) => {
    t.dropIndex('image_key', 'products_image_key_index');
    t.dropChecks(['products_image_key_shape', 'products_image_alt_length']);
    t.dropColumns('image_key', 'image_alt');
  });
}
