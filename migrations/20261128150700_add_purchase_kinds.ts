import type { Knex } from 'knex';

/**
 * A purchase's kind: `standard`, or `comp`, a course staff gave a person from the console (api/src/commerce/purchases/comps.ts)
 * for a reason, by someone. A comp costs nothing and has no charge, coupon, team or upgrade: the database says so,
 * and holds at most one live comp per person and product, whatever the requests racing to give it. Expand only.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('purchases', (t) => {
    t.text('kind').notNullable().defaultTo('standard');
    t.text('comp_reason');
    t.uuid('comped_by_id').references('users.id').onDelete('SET NULL');
    t.check(`kind IN ('standard', 'comp')`, [], 'purchases_kind_known');
    t.check(
      `kind = 'standard' AND comp_reason IS NULL AND comped_by_id IS NULL
        OR kind = 'comp' AND char_length(btrim(comp_reason)) BETWEEN 3 AND 500 AND total_amount = 0
           AND merchant_charge_id IS NULL AND coupon_id IS NULL AND bulk_coupon_id IS NULL
           AND redeemed_bulk_coupon_id IS NULL AND upgraded_from_id IS NULL`,
      [],
      'purchases_comp_shape',
    );
    t.index('comped_by_id');
  });
  await knex.raw(
    `CREATE UNIQUE INDEX purchases_one_live_comp ON purchases (user_id, product_id) WHERE kind = 'comp' AND status = 'Valid'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX purchases_one_live_comp');
  await knex.schema.alterTable('purchases', (t) => {
    t.dropColumn('comped_by_id');
    t.dropColumn('comp_reason');
    t.dropColumn('kind');
  });
}
