import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // A checkout left unpaid ends at expires_at: it is expired at the provider and its reserved coupon use comes back.
  // Checkouts started before this had an hour at Stripe (and none at the test provider): they get that hour.
  await knex.schema.alterTable('checkouts', (t) => {
    t.timestamp('expires_at', { useTz: true });
  });
  await knex.raw(`UPDATE checkouts SET expires_at = created_at + interval '1 hour'`);
  await knex.schema.alterTable('checkouts', (t) => {
    t.dropNullable('expires_at');
  });
  // The expiry sweep's work list: only open checkouts, oldest expiry first.
  await knex.raw(`CREATE INDEX checkouts_open_expiry ON checkouts (expires_at) WHERE status = 'open'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX checkouts_open_expiry');
  await knex.schema.alterTable('checkouts', (t) => t.dropColumn('expires_at'));
}
