import type { Knex } from 'knex';

// The console addresses every record by one `id`. Link tables have composite keys, and two tables are keyed
// by a hash of a secret that must never be shown, so each gets a public surrogate id.
const TABLES = [
  'upgradable_products',
  'content_resource_resources',
  'product_content_resources',
  'verification_tokens',
  'device_verifications',
];

export async function up(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await knex.schema.alterTable(table, (t) => {
      t.uuid('id').notNullable().unique().defaultTo(knex.raw('gen_random_uuid()'));
    });
  }
  // The console's purchase list: newest first within a product or a status, and teams by date.
  await knex.raw('CREATE INDEX purchases_team_by_date ON purchases (created_at) WHERE bulk_coupon_id IS NOT NULL');
  await knex.raw('CREATE INDEX audit_logs_resource_by_date ON audit_logs (resource, created_at)');
  await knex.raw('CREATE INDEX audit_logs_actor_by_date ON audit_logs (actor_id, created_at)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX audit_logs_actor_by_date');
  await knex.raw('DROP INDEX audit_logs_resource_by_date');
  await knex.raw('DROP INDEX purchases_team_by_date');
  for (const table of TABLES) await knex.schema.alterTable(table, (t) => t.dropColumn('id'));
}
