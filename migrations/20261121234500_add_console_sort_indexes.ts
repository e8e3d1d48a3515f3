import type { Knex } from 'knex';

// Indexes for the console's default sorts and the dashboard's window over learner activity.
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX lesson_progress_updated_at ON lesson_progress (updated_at)');
  await knex.raw('CREATE INDEX users_created_at ON users (created_at)');
  await knex.raw(
    'CREATE INDEX content_resources_live_by_update ON content_resources (updated_at) WHERE deleted_at IS NULL',
  );
  await knex.raw('CREATE INDEX comments_created_at ON comments (created_at)');
  await knex.raw('CREATE INDEX sessions_created_at ON sessions (created_at)');
  await knex.raw('CREATE INDEX device_verifications_expires ON device_verifications (expires)');
  await knex.raw('CREATE INDEX sessions_expires ON sessions (expires)');
  await knex.raw('CREATE INDEX oauth_states_expires ON oauth_states (expires)');
  await knex.raw('CREATE INDEX verification_tokens_expires ON verification_tokens (expires)');
}

export async function down(knex: Knex): Promise<void> {
  for (const index of [
    'verification_tokens_expires',
    'oauth_states_expires',
    'sessions_expires',
    'device_verifications_expires',
    'sessions_created_at',
    'comments_created_at',
    'content_resources_live_by_update',
    'users_created_at',
    'lesson_progress_updated_at',
  ]) {
    await knex.raw(`DROP INDEX ${index}`);
  }
}
