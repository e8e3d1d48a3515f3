import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // Staff hide a comment rather than delete it: its author still sees it, with a note saying why.
  await knex.schema.alterTable('comments', (t) => {
    t.timestamp('hidden_at', { useTz: true });
    t.uuid('hidden_by_id').references('users.id').onDelete('SET NULL');
    t.text('hidden_reason');
    t.timestamp('edited_at', { useTz: true }); // shown as "edited"; moderation does not count
  });
  // "Continue where you left off" reads a learner's latest completions.
  await knex.schema.alterTable('lesson_progress', (t) => {
    t.index(['user_id', 'completed_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('lesson_progress', (t) => t.dropIndex(['user_id', 'completed_at']));
  await knex.schema.alterTable('comments', (t) => {
    t.dropColumn('edited_at');
    t.dropColumn('hidden_reason');
    t.dropColumn('hidden_by_id');
    t.dropColumn('hidden_at');
  });
}
