import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // A gift is one seat bought for someone else: a one-seat team of its own, whose claim link the buyer sends. The
  // flag keeps the checkout's intent, so the receipt and the thank-you page speak of a gift and the seat is never
  // added to the buyer's team (whose link others hold).
  await knex.schema.alterTable('checkouts', (t) => {
    t.boolean('gift').notNullable().defaultTo(false);
  });
  await knex.raw(
    'ALTER TABLE checkouts ADD CONSTRAINT checkouts_gift_is_one_seat CHECK (NOT gift OR (team AND quantity = 1))',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('checkouts', (t) => {
    t.dropChecks(['checkouts_gift_is_one_seat']);
    t.dropColumn('gift');
  });
}
