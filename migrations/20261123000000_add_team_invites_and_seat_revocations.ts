import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // A team's invite link names its own code, which the owner can replace (the old link stops working). Every coupon
  // gets one (only team coupons' are ever used); teams made before keep the link they shared: the coupon's id.
  await knex.schema.alterTable('coupons', (t) => {
    t.uuid('invite_code').notNullable().unique().defaultTo(knex.raw('gen_random_uuid()'));
  });
  await knex('coupons')
    .whereNotNull('bulk_purchase_id')
    .update({ invite_code: knex.ref('id') });

  // Someone the owner removed from a team: they cannot take a seat of it again until the owner lets them back in.
  await knex.schema.createTable('team_seat_revocations', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('coupon_id').notNullable().references('coupons.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('revoked_by_id').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['coupon_id', 'user_id']);
  });

  // What a checkout credited for an owned upgradable purchase: the invoice shows it as its own line.
  await knex.schema.alterTable('checkouts', (t) => {
    t.integer('credit_amount').notNullable().defaultTo(0);
    t.check('credit_amount >= 0', [], 'checkouts_credit_amount_range');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('checkouts', (t) => t.dropColumn('credit_amount'));
  await knex.schema.dropTable('team_seat_revocations');
  await knex.schema.alterTable('coupons', (t) => t.dropColumn('invite_code'));
}
