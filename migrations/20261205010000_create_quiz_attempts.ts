import type { Knex } from 'knex';

/**
 * A quiz lesson's attempts (docs/domain.md §11): one row per attempt, numbered per learner and quiz (the unique key
 * backs the attempt limit, which is counted under a lock). The seed the attempt's questions and choices were shuffled
 * with, the answers as given and what grading found are kept, so the console's results read the rows alone.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('quiz_attempts', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('lesson_id').notNullable().references('content_resources.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('number').notNullable();
    t.integer('seed').notNullable();
    t.integer('correct').notNullable();
    t.integer('total').notNullable();
    t.integer('score').notNullable();
    t.integer('pass_percent').notNullable();
    t.boolean('passed').notNullable();
    t.jsonb('answers').notNullable();
    t.jsonb('results').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['user_id', 'lesson_id', 'number']);
    t.check('number >= 1', [], 'quiz_attempts_number_positive');
    t.check('total >= 1 AND correct >= 0 AND correct <= total', [], 'quiz_attempts_counts');
    t.check('score BETWEEN 0 AND 100 AND pass_percent BETWEEN 0 AND 100', [], 'quiz_attempts_percents');
    t.index(['lesson_id', 'created_at', 'id']);
    t.index(['user_id', 'created_at', 'id']);
    t.index(['created_at', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('quiz_attempts');
}
