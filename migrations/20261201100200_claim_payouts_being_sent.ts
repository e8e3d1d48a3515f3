import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // A Stripe payout's sender claims it before asking Stripe for the transfer, so finance cannot pay it by hand (nor
  // another run send it) while the transfer may be under way; a claim older than a sender can live is given up.
  await knex.schema.alterTable('payouts', (t) => {
    t.timestamp('sending_since', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payouts', (t) => {
    t.dropColumn('sending_since');
  });
}
