import type { Knex } from 'knex';

/**
 * A console list's filters and sort saved under a name by one staff member (api/src/admin/lists/saved-filters.ts), read
 * back on any device; only their owner sees them. Expand only.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('saved_filters', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('resource').notNullable();
    t.text('name').notNullable();
    t.jsonb('filter').notNullable().defaultTo('{}');
    t.jsonb('sort');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['user_id', 'resource', 'name'], { indexName: 'saved_filters_user_resource_name_unique' });
    t.check(`char_length(btrim(name)) BETWEEN 1 AND 100`, [], 'saved_filters_name_length');
    t.check(`jsonb_typeof(filter) = 'object'`, [], 'saved_filters_filter_object');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('saved_filters');
}
