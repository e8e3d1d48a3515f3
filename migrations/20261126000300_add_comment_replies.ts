import type { Knex } from 'knex';

/** One level of replies under a lesson's comments: a reply names the top-level comment it answers. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('comments', (t) => {
    // Deleting a comment takes its replies with it: they answer something no longer there.
    t.uuid('parent_id').references('comments.id').onDelete('CASCADE');
    t.check('parent_id IS NULL OR parent_id <> id', [], 'comments_not_own_parent');
    t.index('parent_id');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('comments', (t) => {
    t.dropIndex('parent_id');
    t.dropChecks('comments_not_own_parent');
    t.dropColumn('parent_id');
  });
}
