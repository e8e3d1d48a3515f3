import type { Knex } from 'knex';

/**
 * What a customer's timeline needs beyond the tables it reads (api/src/admin/people/timeline.ts):
 * - staff_notes: internal notes staff add on a person (and optionally one of their purchases), never shown to them;
 * - sign_ins: one row per sign-in (and per device approved), kept after its session ends (sessions are deleted on
 *   sign-out and expiry, device codes a day after they expire); pruned after a year.
 * Expand only.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('staff_notes', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('purchase_id').references('purchases.id').onDelete('SET NULL');
    t.uuid('author_id').references('users.id').onDelete('SET NULL');
    t.text('author_email').notNullable(); // kept when the author's account goes
    t.text('body').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check(`char_length(body) BETWEEN 1 AND 5000`, [], 'staff_notes_body_length');
    t.index(['user_id', 'created_at']);
    t.index(['purchase_id', 'created_at']);
  });
  await knex.schema.createTable('sign_ins', (t) => {
    t.bigIncrements('id').primary();
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('method').notNullable();
    t.text('user_agent');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check(`method IN ('email', 'github', 'device')`, [], 'sign_ins_method_known');
    t.index(['user_id', 'created_at']);
    t.index('created_at');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('sign_ins');
  await knex.schema.dropTable('staff_notes');
}
