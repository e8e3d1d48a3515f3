import type { Knex } from 'knex';

/**
 * The built-in test provider's hosted page shows the tax it was asked to charge, as a real provider's does: its name,
 * rate and amount, inside the total or added to it. Sessions opened before carry none.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('test_provider_sessions', (t) => {
    t.jsonb('tax');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('test_provider_sessions', (t) => {
    t.dropColumn('tax');
  });
}
