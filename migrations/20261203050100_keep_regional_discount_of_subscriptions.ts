import type { Knex } from 'knex';

/** A subscription keeps the regional discount it was subscribed at, so its Billing page tells the next charge right. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE subscriptions ADD COLUMN ppp_bp integer CHECK (ppp_bp BETWEEN 1 AND 10000)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`ALTER TABLE subscriptions DROP COLUMN ppp_bp`);
}
