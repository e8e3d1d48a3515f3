import type { Knex } from 'knex';

/**
 * A person who deleted their account keeps their row (purchases, charges and the ledger name it), erased: the
 * database holds that a deleted account has no email anyone can receive, no name and no picture.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE users ADD COLUMN deleted_at timestamptz`);
  await knex.raw(
    `ALTER TABLE users ADD CONSTRAINT users_deleted_is_erased CHECK (
       deleted_at IS NULL OR (
         email = 'deleted-' || id || '@invalid' AND name IS NULL AND image IS NULL AND avatar_key IS NULL
         AND bio IS NULL AND email_verified IS NULL AND roles = '{learner}'
       )
     )`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE users DROP CONSTRAINT users_deleted_is_erased');
  await knex.raw('ALTER TABLE users DROP COLUMN deleted_at');
}
