import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('audit_logs', (t) => {
    t.bigIncrements('id').primary();
    // No foreign key: the log outlives the accounts it names, and must never be rewritten by a cascade.
    t.uuid('actor_id');
    t.text('actor_email');
    t.text('action').notNullable(); // create | update | delete | refund | ...
    t.text('resource').notNullable(); // e.g. 'products'
    t.text('record_id');
    t.jsonb('before');
    t.jsonb('after');
    t.text('request_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index('created_at');
    t.index(['resource', 'record_id']);
    t.index('actor_id');
  });
  await knex.raw(`
    CREATE FUNCTION audit_logs_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'audit_logs is append-only' USING ERRCODE = 'check_violation'; END $$;
    CREATE TRIGGER audit_logs_append_only BEFORE UPDATE OR DELETE ON audit_logs
      FOR EACH ROW EXECUTE FUNCTION audit_logs_append_only();
  `);

  // Records which one-time data loads (the demo catalog) have run, so a restart never loads them twice.
  await knex.schema.createTable('seed_runs', (t) => {
    t.text('name').primary();
    t.timestamp('ran_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('seed_runs');
  await knex.schema.dropTable('audit_logs');
  await knex.raw('DROP FUNCTION audit_logs_append_only()');
}
