import type { Knex } from 'knex';

/**
 * Support's read-only view of a learner's storefront (api/src/identity/staff/view-as.ts): who looked, at whom, why and
 * until when (at most 30 minutes). The browser holds the token; the row only its hash. Expand only.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('view_as_sessions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('token_hash').notNullable().unique();
    t.uuid('staff_user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('learner_user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('reason').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('entered_at', { useTz: true });
    t.timestamp('ended_at', { useTz: true });
    t.check(`char_length(reason) BETWEEN 3 AND 500`, [], 'view_as_sessions_reason_length');
    t.check(`expires_at <= created_at + interval '30 minutes'`, [], 'view_as_sessions_at_most_30_minutes');
    t.check(`staff_user_id <> learner_user_id`, [], 'view_as_sessions_not_oneself');
    t.index(['learner_user_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('view_as_sessions');
}
