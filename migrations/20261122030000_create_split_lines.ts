import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // The revenue split ledger: lines are only ever added. A refund or dispute writes negative lines, a won
  // dispute positive ones; a charge's lines always sum to what it finally brought in.
  await knex.schema.createTable('split_lines', (t) => {
    t.bigIncrements('id');
    t.uuid('merchant_charge_id').notNullable().references('merchant_charges.id').onDelete('RESTRICT');
    t.uuid('product_id').notNullable().references('products.id').onDelete('RESTRICT');
    t.text('recipient_type').notNullable();
    t.uuid('user_id').references('users.id').onDelete('RESTRICT');
    t.text('kind').notNullable();
    t.integer('amount').notNullable(); // cents, signed
    t.text('currency').notNullable();
    t.text('reference'); // the refund or dispute it comes from
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check(`recipient_type IN ('platform', 'owner', 'contributor')`, [], 'split_lines_recipient_type_known');
    t.check(`(recipient_type = 'platform') = (user_id IS NULL)`, [], 'split_lines_user_matches_type');
    t.check(`kind IN ('sale', 'refund', 'dispute', 'dispute-won')`, [], 'split_lines_kind_known');
    t.index('created_at');
    t.index(['user_id', 'created_at']);
    t.index('merchant_charge_id');
  });
  await knex.raw(`
    CREATE FUNCTION split_lines_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'split_lines is append-only' USING ERRCODE = 'check_violation'; END $$;
    CREATE TRIGGER split_lines_append_only BEFORE UPDATE OR DELETE ON split_lines
      FOR EACH ROW EXECUTE FUNCTION split_lines_append_only();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('split_lines');
  await knex.raw('DROP FUNCTION split_lines_append_only()');
}
