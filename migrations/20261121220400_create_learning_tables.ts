import type { Knex } from 'knex';
import { addUpdatedAtTrigger, inList, timestamps } from './helpers';

const RESOURCE_TYPES = ['course', 'module', 'section', 'lesson', 'solution', 'page'];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('content_resources', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('type').notNullable();
    t.uuid('created_by_id').references('users.id').onDelete('SET NULL');
    t.jsonb('fields').notNullable().defaultTo('{}'); // title, slug, description, body, state, visibility
    timestamps(knex, t);
    t.timestamp('deleted_at', { useTz: true });
    t.check(`type IN (${inList(RESOURCE_TYPES)})`, [], 'content_resources_type_known');
    t.check(`jsonb_typeof(fields) = 'object'`, [], 'content_resources_fields_object');
    t.check(
      `fields->>'state' IS NULL OR fields->>'state' IN ('draft', 'published', 'archived')`,
      [],
      'content_resources_state_known',
    );
    t.check(
      `fields->>'visibility' IS NULL OR fields->>'visibility' IN ('public', 'unlisted', 'private')`,
      [],
      'content_resources_visibility_known',
    );
    t.index(['type', 'created_at']);
    t.index('created_by_id');
  });
  await knex.raw(
    `CREATE UNIQUE INDEX content_resources_slug_unique ON content_resources ((fields->>'slug')) WHERE deleted_at IS NULL AND fields->>'slug' IS NOT NULL`,
  );

  await knex.schema.createTable('content_resource_resources', (t) => {
    t.uuid('resource_of_id').notNullable().references('content_resources.id').onDelete('CASCADE');
    t.uuid('resource_id').notNullable().references('content_resources.id').onDelete('CASCADE');
    t.double('position').notNullable().defaultTo(0);
    t.jsonb('metadata').notNullable().defaultTo('{}'); // e.g. { "tier": "free" }
    timestamps(knex, t);
    t.timestamp('deleted_at', { useTz: true });
    t.primary(['resource_of_id', 'resource_id']);
    t.index(['resource_of_id', 'position']);
    t.index('resource_id');
    t.check(`resource_of_id <> resource_id`, [], 'content_resource_resources_not_self');
  });

  await knex.schema.createTable('product_content_resources', (t) => {
    t.uuid('product_id').notNullable().references('products.id').onDelete('CASCADE');
    t.uuid('resource_id').notNullable().references('content_resources.id').onDelete('CASCADE');
    t.double('position').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['product_id', 'resource_id']);
    t.index('resource_id');
  });

  await knex.schema.createTable('lesson_progress', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('lesson_id').notNullable().references('content_resources.id').onDelete('CASCADE');
    t.uuid('section_id').references('content_resources.id').onDelete('SET NULL');
    t.uuid('module_id').references('content_resources.id').onDelete('SET NULL');
    t.text('lesson_slug');
    t.text('lesson_version');
    t.timestamp('completed_at', { useTz: true });
    timestamps(knex, t);
    t.unique(['user_id', 'lesson_id']);
    t.index(['user_id', 'module_id']);
    t.index('lesson_id');
  });

  await knex.schema.createTable('comments', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('text').notNullable();
    t.jsonb('context').notNullable().defaultTo('{}'); // { resourceId, category }
    timestamps(knex, t);
    t.check(`char_length(text) BETWEEN 1 AND 10000`, [], 'comments_text_length');
    t.index('user_id');
  });
  await knex.raw(`CREATE INDEX comments_by_resource ON comments ((context->>'resourceId'), created_at)`);

  await knex.schema.createTable('bookmarks', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('resource_id').notNullable().references('content_resources.id').onDelete('CASCADE');
    t.text('type').notNullable().defaultTo('bookmark');
    t.jsonb('fields').notNullable().defaultTo('{}');
    timestamps(knex, t);
    t.unique(['user_id', 'resource_id', 'type']);
    t.index(['user_id', 'created_at']);
    t.index('resource_id');
  });

  for (const table of ['content_resources', 'content_resource_resources', 'lesson_progress', 'comments', 'bookmarks']) {
    await addUpdatedAtTrigger(knex, table);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'bookmarks',
    'comments',
    'lesson_progress',
    'product_content_resources',
    'content_resource_resources',
    'content_resources',
  ]) {
    await knex.schema.dropTable(table);
  }
}
