import type { Knex } from 'knex';

/**
 * When the provider's state of a subscription (status, period, cancel at its end) was last read and recorded: a state
 * read earlier, delivered later, changes nothing (docs/domain.md §22).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE subscriptions ADD COLUMN provider_state_at timestamptz`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE subscriptions DROP COLUMN provider_state_at`);
}
