import type { Knex } from 'knex';

/**
 * Dunning (docs/domain.md §22): a past-due subscription's retries of its failed renewal (how many were made, when the
 * next is due), the queue of the sweep that makes them and records lapses, and the test provider's card on file
 * (declined once a renewal failed, until a new card is set, then the learner returns to where they came from).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE subscriptions
      ADD COLUMN retry_count integer NOT NULL DEFAULT 0 CHECK (retry_count >= 0),
      ADD COLUMN next_retry_at timestamptz;
    CREATE INDEX subscriptions_dunning_idx ON subscriptions (next_retry_at) WHERE status = 'past_due';
    CREATE INDEX subscriptions_grace_idx ON subscriptions (grace_until) WHERE status = 'past_due';

    ALTER TABLE test_provider_subscriptions
      ADD COLUMN card_declined boolean NOT NULL DEFAULT false,
      ADD COLUMN card_return_url text;
  `);
  await knex.raw(`SELECT pgboss.create_queue('subscription-dunning', '{"policy":"standard"}'::json)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`SELECT pgboss.delete_queue('subscription-dunning')`);
  await knex.raw(`
    ALTER TABLE test_provider_subscriptions DROP COLUMN card_return_url, DROP COLUMN card_declined;
    DROP INDEX subscriptions_grace_idx;
    DROP INDEX subscriptions_dunning_idx;
    ALTER TABLE subscriptions DROP COLUMN next_retry_at, DROP COLUMN retry_count;
  `);
}
