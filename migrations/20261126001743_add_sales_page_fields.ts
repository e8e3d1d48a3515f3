import type { Knex } from 'knex';
import { addUpdatedAtTrigger, timestamps } from './helpers';

/**
 * What a product's sales page says beyond its data (issue 17): "what's included" lines and question/answer pairs,
 * both edited in the console; the product's own refund policy (null: the platform's); an instructor's bio on their
 * account; and a lesson's estimated length, kept in the content's `fields` beside its title (its shape checked here).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('products', (t) => {
    t.specificType('included', 'text[]').notNullable().defaultTo('{}');
    t.text('refund_policy');
    t.check(`cardinality(included) <= 12`, [], 'products_included_count');
    t.check(`char_length(refund_policy) BETWEEN 1 AND 4000`, [], 'products_refund_policy_length');
  });
  await knex.schema.createTable('product_faqs', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('product_id').notNullable().references('products.id').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.text('question').notNullable();
    t.text('answer').notNullable();
    timestamps(knex, t);
    t.check(`char_length(question) BETWEEN 1 AND 200`, [], 'product_faqs_question_length');
    t.check(`char_length(answer) BETWEEN 1 AND 2000`, [], 'product_faqs_answer_length');
    t.unique(['product_id', 'position'], { indexName: 'product_faqs_position_unique' });
  });
  await addUpdatedAtTrigger(knex, 'product_faqs');
  await knex.schema.alterTable('users', (t) => {
    t.text('bio');
    t.check(`char_length(bio) BETWEEN 1 AND 1000`, [], 'users_bio_length');
  });
  // A whole number of minutes from 1 to a day, or absent: the sales page adds them up.
  await knex.raw(`ALTER TABLE content_resources ADD CONSTRAINT content_resources_duration_minutes_shape CHECK (
    coalesce(jsonb_typeof(fields->'durationMinutes'), 'null') = 'null'
    OR (jsonb_typeof(fields->'durationMinutes') = 'number'
        AND (fields->>'durationMinutes')::numeric BETWEEN 1 AND 1440
        AND (fields->>'durationMinutes')::numeric = trunc((fields->>'durationMinutes')::numeric))
  )`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE content_resources DROP CONSTRAINT content_resources_duration_minutes_shape`);
  await knex.schema.alterTable('users', (t) => {
    t.dropChecks(['users_bio_length']);
    t.dropColumn('bio');
  });
  await knex.schema.dropTable('product_faqs');
  await knex.schema.alterTable('products', (t) => {
    t.dropChecks(['products_included_count', 'products_refund_policy_length']);
    t.dropColumns('included', 'refund_policy');
  });
}
