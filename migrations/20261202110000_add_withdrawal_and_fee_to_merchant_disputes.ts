import type { Knex } from 'knex';

/**
 * What a dispute moved at the processor (docs/domain.md §20): whether its amount was withdrawn (an inquiry, Stripe's
 * warning_* statuses, withdraws nothing), and the dispute fee the withdrawal carried (null until an event or a
 * recovery tells it). Disputes recorded before were all withdrawals.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE merchant_disputes
      ADD COLUMN withdrawn boolean NOT NULL DEFAULT true,
      ADD COLUMN fee integer CONSTRAINT merchant_disputes_fee_range CHECK (fee >= 0)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE merchant_disputes DROP COLUMN withdrawn, DROP COLUMN fee`);
}
