import type { Knex } from 'knex';
import { addUpdatedAtTrigger, inList, timestamps } from './helpers';

const PRODUCT_TYPES = ['self-paced', 'live', 'cohort', 'membership'];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('products', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('name').notNullable();
    t.text('key').unique(); // a stable handle for code and imports, e.g. "pro-typescript"
    t.text('slug').unique();
    t.text('description');
    t.text('product_type').notNullable().defaultTo('self-paced');
    t.text('status').notNullable().defaultTo('active');
    t.integer('quantity_available').notNullable().defaultTo(-1); // -1 = unlimited
    t.timestamp('enrollment_opens_at', { useTz: true });
    t.timestamp('enrollment_closes_at', { useTz: true });
    timestamps(knex, t);
    t.check(`char_length(name) BETWEEN 2 AND 90`, [], 'products_name_length');
    t.check(`product_type IN (${inList(PRODUCT_TYPES)})`, [], 'products_type_known');
    t.check(`status IN ('active', 'archived')`, [], 'products_status_known');
    t.check(`quantity_available >= -1`, [], 'products_quantity_available_range');
    t.check(
      `enrollment_opens_at IS NULL OR enrollment_closes_at IS NULL OR enrollment_opens_at < enrollment_closes_at`,
      [],
      'products_enrollment_window_order',
    );
    t.index(['status', 'created_at']);
  });

  await knex.schema.createTable('prices', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('product_id').notNullable().references('products.id').onDelete('CASCADE');
    t.text('nickname');
    t.text('status').notNullable().defaultTo('active');
    t.integer('unit_amount').notNullable(); // cents
    t.text('currency').notNullable().defaultTo('usd');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check(`status IN ('active', 'archived')`, [], 'prices_status_known');
    t.check(`unit_amount >= 0`, [], 'prices_unit_amount_range');
    t.check(`currency ~ '^[a-z]{3}$'`, [], 'prices_currency_shape');
    t.index(['product_id', 'created_at']);
  });
  // A product has one current price; older ones stay archived for history.
  await knex.raw(`CREATE UNIQUE INDEX prices_one_active_per_product ON prices (product_id) WHERE status = 'active'`);

  await knex.schema.createTable('upgradable_products', (t) => {
    t.uuid('upgradable_from_id').notNullable().references('products.id').onDelete('CASCADE');
    t.uuid('upgradable_to_id').notNullable().references('products.id').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['upgradable_from_id', 'upgradable_to_id']);
    t.index('upgradable_to_id');
    t.check(`upgradable_from_id <> upgradable_to_id`, [], 'upgradable_products_distinct');
  });

  await addUpdatedAtTrigger(knex, 'products');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('upgradable_products');
  await knex.schema.dropTable('prices');
  await knex.schema.dropTable('products');
}
