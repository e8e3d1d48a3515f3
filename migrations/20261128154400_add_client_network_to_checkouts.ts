import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // The client network a checkout was started from (an IPv4 address, an IPv6 /64): how many uses of one limited coupon
  // it holds at a time is capped, so that one address cannot reserve a coupon's every use with unpaid checkouts.
  await knex.schema.alterTable('checkouts', (t) => {
    t.text('client_network');
  });
  // The coupon's open holds, read under the coupon's lock at every checkout start that reserves a use.
  await knex.raw(
    `CREATE INDEX checkouts_open_coupon_holds ON checkouts (coupon_id, client_network) WHERE status = 'open' AND coupon_reserved`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX checkouts_open_coupon_holds');
  await knex.schema.alterTable('checkouts', (t) => {
    t.dropColumn('client_network');
  });
}
