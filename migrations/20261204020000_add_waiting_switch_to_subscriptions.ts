import type { Knex } from 'knex';

/**
 * A switch of interval that waits for the period's end (nothing to pay now: yearly to monthly, or during a trial)
 * moves the subscription's price at once, so the next charge is the new one; these keep the price the current period
 * was billed at and the end it waits for, so the Billing page says what is coming and the learner can undo it. The
 * switch has happened once the subscription's period starts at or after `switch_at`: no write is needed then.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE subscriptions
      ADD COLUMN switch_at timestamptz,
      ADD COLUMN switched_from_price_id uuid REFERENCES prices (id),
      ADD CONSTRAINT subscriptions_waiting_switch_whole
        CHECK ((switch_at IS NULL) = (switched_from_price_id IS NULL))
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE subscriptions
      DROP CONSTRAINT subscriptions_waiting_switch_whole,
      DROP COLUMN switch_at,
      DROP COLUMN switched_from_price_id
  `);
}
